package dev.stockhold.supply;

import java.time.Instant;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.web.Params;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/items/{sku}/stock/{location}/incoming: a purchase order's expected receipt. */
@Schema(name = "IncomingRequest")
@RegisterForReflection
public record IncomingRequest(
        @Schema(required = true, minimum = "1", maximum = "1000000000", example = "20") @NotNull @Min(1) @Max(1_000_000_000) Long quantity,
        @Schema(required = true, format = "date-time", example = "2026-12-10T09:00:00Z",
                description = "When the units are expected (RFC 3339)") @NotNull String expectedAt,
        @Schema(minLength = 1, maxLength = 128, example = "PO-4410", description = "The client's document") @Size(min = 1,
                max = 128) String reference) {

    Instant expected() {
        return Params.instant("expectedAt", expectedAt);
    }

    /** expectedAt is a date. Call after Bean Validation passed. */
    IncomingRequest requireValid() {
        expected();
        return this;
    }

    Fingerprint fingerprint(StockKey at) {
        return Fingerprint.of("incoming;" + at.sku() + "@" + at.location() + ";" + quantity + ";" + expected() + ";"
                + (reference == null ? "" : reference.length() + ":" + reference));
    }
}
