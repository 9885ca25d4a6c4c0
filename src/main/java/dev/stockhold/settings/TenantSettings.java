package dev.stockhold.settings;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * A tenant's caps on reservations (GET and PUT /v1/settings): absent means no cap. A PUT replaces all of them, so a cap
 * left out of it is lifted.
 */
@Schema(name = "Settings", description = "The tenant's caps on reservations; a cap that is absent does not apply.")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TenantSettings(
        @Schema(minimum = "1", maximum = "1000000", example = "5",
                description = "The most units one reservation line may hold (a split line counts whole)") @Min(1) @Max(1_000_000) Integer maxLineQuantity,
        @Schema(minimum = "1", maximum = "1000000", example = "2",
                description = "The most HELD, unexpired reservations that one reference may have") @Min(1) @Max(1_000_000) Integer maxHeldPerReference) {

    /** A tenant that has set nothing. */
    public static final TenantSettings NONE = new TenantSettings(null, null);

    /** Whether any cap applies. */
    public boolean capped() {
        return maxLineQuantity != null || maxHeldPerReference != null;
    }
}
