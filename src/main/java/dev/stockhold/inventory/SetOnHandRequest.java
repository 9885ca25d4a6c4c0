package dev.stockhold.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Body of PUT /v1/items/{sku}/stock/{location}: an absolute on-hand count (a physical count), and optionally the
 * record's own safety stock and low-stock threshold.
 */
@Schema(name = "SetOnHandRequest")
@RegisterForReflection
public record SetOnHandRequest(
        @Schema(required = true, minimum = "0", maximum = "1000000000", example = "120",
                description = "A JSON integer") @NotNull @Min(0) @Max(1_000_000_000) Long onHand,
        @Schema(maxLength = 2048, format = "uri", example = "https://wms.example.com/counts/8812",
                description = "The document behind the count (an absolute URI), recorded in its movement") @Size(
                        max = 2048) String reference,
        @Schema(minimum = "0", maximum = "1000000000", example = "2",
                description = "The record's own safety stock: units reservations never take; absent: unchanged (a new record "
                        + "takes its location's default)") @Min(0) @Max(1_000_000_000) Long safetyStock,
        @Schema(minimum = "0", maximum = "1000000000", example = "10",
                description = "The record's own low-stock threshold (0: never low); absent: unchanged") @Min(0) @Max(1_000_000_000) Long lowStockThreshold) {

    /** Call after Bean Validation passed. */
    public SetOnHandRequest requireAbsoluteReference() {
        References.requireAbsolute(reference);
        return this;
    }
}
