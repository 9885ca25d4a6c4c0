package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

/**
 * Data of stock.replenished.v1: the record's reservable rose from 0, by a change of on hand, a release or a lower
 * safety stock; the record as that change left it. {@code safetyStock} and {@code reservable} were added to v1 as
 * optional fields.
 */
public record StockReplenishedV1(String sku, String location, long onHand, long held, long available, long version, Long committed,
        Long safetyStock, Long reservable) {
}
