package dev.stockhold.inventory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of PUT /v1/kits/{sku}. */
@Schema(name = "KitRequest")
@RegisterForReflection(ignoreNested = false)
public record KitRequest(
        @Schema(required = true, minItems = 1, maxItems = MAX_COMPONENTS,
                description = "Distinct skus with stock of their own (not kits), and the units of each in one kit") @NotNull @Size(min = 1,
                        max = MAX_COMPONENTS) List<@Valid @NotNull Component> components) {

    /** The most components one kit may have. */
    public static final int MAX_COMPONENTS = 20;

    /** One component as asked. */
    @Schema(name = "KitRequestComponent")
    public record Component(
            @Schema(required = true, pattern = Sku.REGEX, example = "A-1") @NotNull @Pattern(regexp = Sku.REGEX,
                    message = Sku.RULE) String sku,
            @Schema(required = true, minimum = "1", maximum = "1000", example = "2") @NotNull @Min(1) @Max(1000) Integer quantity) {
    }

    /** Components are distinct and none is the kit itself. Call after Bean Validation passed. */
    KitRequest requireValid(String kit) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < components.size(); i++) {
            String sku = components.get(i).sku();
            if (sku.equals(kit)) {
                throw new ValidationFailedException("components[" + i + "].sku", "is the kit itself");
            }
            Integer earlier = first.putIfAbsent(sku, i);
            if (earlier != null) {
                throw new ValidationFailedException("components[" + i + "].sku", "repeats components[" + earlier + "]");
            }
        }
        return this;
    }
}
