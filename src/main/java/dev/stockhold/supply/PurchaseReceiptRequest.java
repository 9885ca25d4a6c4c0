package dev.stockhold.supply;

import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/purchase-orders/{id}/receipts. */
@Schema(name = "PurchaseReceiptRequest")
@RegisterForReflection
public record PurchaseReceiptRequest(
        @Schema(required = true, minimum = "0", maximum = "1000000000", example = "12",
                description = "Units that arrived; at most what is still expected (0 only to close)") @NotNull @Min(0) @Max(1_000_000_000) Long quantity,
        @Schema(description = "This is the order's last receipt: what it still expected after it will not come (the order "
                + "closes, and lines promised the rest are promised the next supply). Default false") Boolean close) {

    /** A receipt of nothing only closes. Call after Bean Validation passed. */
    PurchaseReceiptRequest requireValid() {
        if (quantity == 0 && !closes()) {
            throw new ValidationFailedException("quantity", "must be at least 1 unless close is true");
        }
        return this;
    }

    boolean closes() {
        return Boolean.TRUE.equals(close);
    }

    Fingerprint fingerprint(UUID order) {
        return Fingerprint.of("purchase-receipt;" + order + ";" + quantity + ";" + closes());
    }
}
