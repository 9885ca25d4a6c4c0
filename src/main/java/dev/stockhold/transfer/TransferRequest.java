package dev.stockhold.transfer;

import java.time.Instant;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.inventory.Sku;
import dev.stockhold.web.Params;
import dev.stockhold.web.ValidationFailedException;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/transfers. */
@Schema(name = "TransferRequest")
@RegisterForReflection
public record TransferRequest(
        @Schema(required = true, pattern = Sku.REGEX, example = "A-1") @NotNull @Pattern(regexp = Sku.REGEX, message = Sku.RULE) String sku,
        @Schema(required = true, pattern = Sku.REGEX, example = "WH-1",
                description = "The location the units leave; it must have a record of the sku") @NotNull @Pattern(regexp = Sku.REGEX,
                        message = Sku.RULE) String from,
        @Schema(required = true, pattern = Sku.REGEX, example = "WH-2",
                description = "The location they go to, not from; created with its record when absent") @NotNull @Pattern(
                        regexp = Sku.REGEX, message = Sku.RULE) String to,
        @Schema(required = true, minimum = "1", maximum = "1000000000", example = "10") @NotNull @Min(1) @Max(1_000_000_000) Long quantity,
        @Schema(minLength = 1, maxLength = 128, example = "TO-1093", description = "The client's document") @Size(min = 1,
                max = 128) String reference,
        @Schema(format = "date-time", example = "2026-12-10T09:00:00Z",
                description = "When the destination expects the units (RFC 3339)") String expectedAt) {

    /** The destination differs from the origin, and expectedAt is a date. Call after Bean Validation passed. */
    TransferRequest requireValid() {
        if (from.equals(to)) {
            throw new ValidationFailedException("to", "must differ from from");
        }
        expected();
        return this;
    }

    Instant expected() {
        return Params.instant("expectedAt", expectedAt);
    }

    /** Same value for the same intent. */
    Fingerprint fingerprint() {
        Instant expected = expected();
        return Fingerprint
                .of("transfer;" + sku + ";" + from + ";" + to + ";" + quantity + ";" + (reference == null ? "" : reference.length()
                        + ":" + reference) + ";" + (expected == null ? "" : expected.toString()));
    }
}
