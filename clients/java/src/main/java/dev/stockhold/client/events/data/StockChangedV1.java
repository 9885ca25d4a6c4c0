package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Data of stock.changed.v1: on hand changed by an admin set or adjustment, a fulfilment, a transfer or a purchase
 * order's receipt. The record as the write
 * left it, what the write changed on hand by, the reason the admin gave (omitted when none), and which kind of write it
 * was. {@code committed} and {@code kind} were added to v1 as optional fields; every event this release writes has them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StockChangedV1(String sku, String location, long onHand, long held, long available, long version, long delta,
        String reason, Long committed, Kind kind) {

    /** What changed on hand. */
    public enum Kind {
        SET("set"),
        ADJUST("adjust"),
        FULFIL("fulfil"),
        /** A transfer shipped from the record, was received at it, or was returned to it by a cancel. */
        TRANSFER("transfer"),
        /** A purchase order's units arrived at the record. */
        PURCHASE_RECEIPT("purchase-receipt");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        @JsonValue
        public String wire() {
            return wire;
        }
    }
}
