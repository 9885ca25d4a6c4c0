package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

/**
 * Data of stock.low.v1: the record's available fell to its low-stock threshold or below (once per crossing; none while
 * it stays there), by a reservation, a change of on hand or a higher threshold; the record as that change left it.
 */
public record StockLowV1(String sku, String location, long onHand, long held, long committed, long available, long lowStockThreshold,
        long safetyStock, long reservable, long version) {
}
