package dev.stockhold.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of PUT /v1/locations/{location}. */
@Schema(name = "LocationRequest")
@RegisterForReflection
public record LocationRequest(
        @Schema(required = true, minimum = "0", maximum = "1000000", example = "100",
                description = "Allocation order: lower is tried first; ties by name") @NotNull @Min(0) @Max(1_000_000) Integer priority,
        @Schema(minimum = "0", maximum = "1000000000", example = "2",
                description = "Default safety stock of the location's records; absent: unchanged (0 for a new location)") @Min(0) @Max(1_000_000_000) Long safetyStock,
        @Schema(minimum = "0", maximum = "1000000000", example = "10",
                description = "Default low-stock threshold; absent: unchanged (0, never low, for a new location)") @Min(0) @Max(1_000_000_000) Long lowStockThreshold) {
}
