package dev.stockhold.transfer;

import java.util.UUID;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/transfers/{id}/receipts. */
@Schema(name = "TransferReceiptRequest")
@RegisterForReflection
public record ReceiptRequest(
        @Schema(required = true, minimum = "1", maximum = "1000000000", example = "4",
                description = "Units that arrived; at most what is still in transit") @NotNull @Min(1) @Max(1_000_000_000) Long quantity) {

    Fingerprint fingerprint(UUID transfer) {
        return Fingerprint.of("receipt;" + transfer + ";" + quantity);
    }
}
