package dev.stockhold.inventory;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One stock record as the API shows it (GET/PUT /v1/items/{sku}/stock/{location}). */
@Schema(name = "StockRecord", description = "Stock of one sku at one location. available = onHand - held - committed; reservations "
        + "may take reservable = max(0, available - safetyStock).")
@RegisterForReflection
public record StockRecord(
        @Schema(required = true, example = "A-1") String sku,
        @Schema(required = true, example = "default") String location,
        @Schema(required = true, description = "Units at the location not yet sold", example = "100") long onHand,
        @Schema(required = true, description = "Units in HELD reservations", example = "3") long held,
        @Schema(required = true,
                description = "Units of confirmed reservations with deferred fulfilment, not yet fulfilled or released",
                example = "0") long committed,
        @Schema(required = true, description = "onHand - held - committed: the units not promised to anyone",
                example = "97") long available,
        @Schema(required = true,
                description = "Rises by one on every admin write of on hand (a set, an adjustment, a count, a transfer, a purchase receipt), never on reservations; the ETag",
                example = "4") long version,
        @Schema(required = true, description = "ISO-8601 UTC") Instant updatedAt,
        @Schema(required = true, description = "Units reservations never take: the record's own value, else its location's default",
                example = "2") long safetyStock,
        @Schema(required = true, description = "stock.low is published when available falls to this or below; 0: never",
                example = "10") long lowStockThreshold,
        @Schema(required = true, description = "max(0, available - safetyStock): what a reservation can still take",
                example = "95") long reservable,
        @Schema(required = true, description = "Units shipped here by transfers and not yet received: not on hand, not reservable",
                example = "0") long inTransit,
        @Schema(required = true, description = "Units on their way here: what open purchase orders still expect, plus inTransit",
                example = "0") long incoming) {

    public StockRecord(String sku, String location, long onHand, long held, long committed, long version, Instant updatedAt,
            long safetyStock, long lowStockThreshold, long inTransit, long incoming) {
        this(sku, location, onHand, held, committed, Reservable.available(onHand, held, committed), version, updatedAt, safetyStock,
                lowStockThreshold, Reservable.of(onHand, held, committed, safetyStock), inTransit, incoming);
    }

    public StockKey key() {
        return new StockKey(sku, location);
    }

    /** The strong entity tag of this version, as ETag and If-Match carry it. */
    public String etag() {
        return "\"" + version + "\"";
    }

    /** The units promised to someone ({@link Reservable#promised}): on hand may never fall below them. */
    public long promised() {
        return Reservable.promised(held, committed);
    }

    /** Whether the record is at or below its low-stock threshold (never with threshold 0). */
    public boolean low() {
        return lowStockThreshold > 0 && available <= lowStockThreshold;
    }

    /** The same record with {@code delta} more available (negative: less), as it was before a move of that size. */
    public StockRecord withAvailableMovedBy(long delta) {
        return new StockRecord(sku, location, onHand, held - delta, committed, version, updatedAt, safetyStock, lowStockThreshold,
                inTransit, incoming);
    }
}
