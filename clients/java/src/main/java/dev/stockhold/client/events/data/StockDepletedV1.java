package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

/**
 * Data of stock.depleted.v1: the record's reservable (available above its safety stock) reached 0; the record as that
 * change left it. {@code safetyStock} and {@code reservable} were added to v1 as optional fields; with no safety stock,
 * reservable is available.
 */
public record StockDepletedV1(String sku, String location, long onHand, long held, long available, long version, Long committed,
        Long safetyStock, Long reservable) {
}
