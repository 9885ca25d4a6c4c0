package dev.stockhold.events;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Data of stock.depleted.v1: the record's available reached 0; the record as that change left it. */
@RegisterForReflection
public record StockDepletedV1(String sku, String location, long onHand, long held, long available, long version, Long committed) {
}
