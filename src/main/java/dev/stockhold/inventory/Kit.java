package dev.stockhold.inventory;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A kit: a sku sold as a set of other skus. It has no stock of its own; a reservation of it holds its components. */
@Schema(name = "Kit")
@RegisterForReflection(ignoreNested = false)
public record Kit(@Schema(required = true, example = "GIFT-1") String sku,
        @Schema(required = true, minItems = 1, maxItems = KitRequest.MAX_COMPONENTS) List<Component> components,
        @Schema(required = true, example = "1", description = "Rises on every write; the ETag is \"<version>\"") long version) {

    /** One component: units of a sku in one unit of the kit. */
    @Schema(name = "KitComponent")
    public record Component(@Schema(required = true, pattern = Sku.REGEX, example = "A-1") String sku,
            @Schema(required = true, minimum = "1", maximum = "1000", example = "2") int quantity) {
    }

    @JsonIgnore
    public String etag() {
        return "\"" + version + "\"";
    }

    /** GET /v1/kits: the tenant's kits by sku. */
    @Schema(name = "KitList")
    public record Page(@Schema(required = true) List<Kit> items) {
    }
}
