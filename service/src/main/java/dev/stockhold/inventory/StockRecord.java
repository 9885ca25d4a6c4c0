package dev.stockhold.inventory;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One stock record as the API shows it (GET/PUT /v1/items/{sku}/stock/{location}). */
@Schema(name = "StockRecord", description = "Stock of one sku at one location. available = onHand - held - committed.")
@RegisterForReflection
public record StockRecord(
        @Schema(required = true, example = "A-1") String sku,
        @Schema(required = true, example = "default") String location,
        @Schema(required = true, description = "Units at the location not yet sold", example = "100") long onHand,
        @Schema(required = true, description = "Units in HELD reservations", example = "3") long held,
        @Schema(required = true,
                description = "Units of confirmed reservations with deferred fulfilment, not yet fulfilled or released",
                example = "0") long committed,
        @Schema(required = true, description = "onHand - held - committed: what can still be reserved", example = "97") long available,
        @Schema(required = true, description = "Rises by one on every set or adjustment (not on reservations); the ETag",
                example = "4") long version,
        @Schema(required = true, description = "ISO-8601 UTC") Instant updatedAt) {

    public StockRecord(String sku, String location, long onHand, long held, long committed, long version, Instant updatedAt) {
        this(sku, location, onHand, held, committed, onHand - held - committed, version, updatedAt);
    }

    public StockKey key() {
        return new StockKey(sku, location);
    }

    /** The strong entity tag of this version, as ETag and If-Match carry it. */
    public String etag() {
        return "\"" + version + "\"";
    }
}
