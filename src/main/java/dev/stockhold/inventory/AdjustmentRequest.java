package dev.stockhold.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/items/{sku}/stock/{location}/adjustments: a change of on hand, not a new value (I7). */
@Schema(name = "AdjustmentRequest")
@RegisterForReflection
public record AdjustmentRequest(
        @Schema(required = true, minimum = "-1000000000", maximum = "1000000000", example = "-3",
                description = "A non-zero JSON integer added to on hand") @NotNull @Min(-1_000_000_000) @Max(1_000_000_000) Long delta,
        @Schema(minLength = 1, maxLength = 64, example = "damaged", description = "Why, for the stock.changed event") @Size(min = 1,
                max = 64) String reason,
        @Schema(maxLength = 2048, format = "uri", example = "https://erp.example.com/receipts/4410",
                description = "The document behind the change (an absolute URI), recorded in its movement") @Size(
                        max = 2048) String reference) {

    /** Call after Bean Validation passed. */
    public AdjustmentRequest requireNonZero() {
        if (delta == 0) {
            throw new ValidationFailedException("delta", "must not be 0");
        }
        References.requireAbsolute(reference);
        return this;
    }

    /** The route and the values: the same key on another endpoint or record, or with another delta, is reused (422). */
    public Fingerprint fingerprint(StockKey at) {
        return Fingerprint.of("adjust;" + at.sku().length() + ":" + at.sku() + ";" + at.location().length() + ":" + at.location()
                + ";delta=" + delta + ";reason=" + (reason == null ? "" : reason.length() + ":" + reason)
                // absent, it adds nothing: a request without it keeps the fingerprint it had before it existed
                + (reference == null ? "" : ";reference=" + reference.length() + ":" + reference));
    }
}
