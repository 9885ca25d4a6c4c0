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
                description = "Allocation order: lower is tried first; ties by name") @NotNull @Min(0) @Max(1_000_000) Integer priority) {
}
