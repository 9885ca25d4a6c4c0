package dev.stockhold.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of PUT /v1/items/{sku}: the free-to-reserve quantity. */
@Schema(name = "SetStockRequest")
@RegisterForReflection(ignoreNested = false)
public record SetStockRequest(
        @Schema(required = true, minimum = "0", maximum = "1000000000",
                example = "100") @NotNull @Min(0) @Max(1_000_000_000) Long available) {
}
