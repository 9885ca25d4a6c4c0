package dev.stockhold.events;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Data of stock.depleted.v1: the record's reservable (available above its safety stock) reached 0; the record as that
 * change left it. {@code safetyStock} and {@code reservable} were added to v1 as optional fields; with no safety stock,
 * reservable is available.
 */
@RegisterForReflection
public record StockDepletedV1(String sku, String location, long onHand, long held, long available, long version, Long committed,
        Long safetyStock, Long reservable) {
}
