package dev.stockhold.events;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Data of stock.changed.v1: an admin set or adjustment. The record as the write left it, what the write changed on hand
 * by, and the reason the admin gave (omitted when none).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StockChangedV1(String sku, String location, long onHand, long held, long available, long version, long delta,
        String reason) {
}
