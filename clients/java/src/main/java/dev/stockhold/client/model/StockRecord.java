package dev.stockhold.client.model;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * Stock of one sku at one location. available = onHand - held - committed; reservations may take reservable = max(0, available - safetyStock).
 *
 * @param sku (required)
 * @param location (required)
 * @param onHand (required) Units at the location not yet sold
 * @param held (required) Units in HELD reservations
 * @param committed (required) Units of confirmed reservations with deferred fulfilment, not yet fulfilled or released
 * @param available (required) onHand - held - committed: the units not promised to anyone
 * @param version (required) Rises by one on every admin write of on hand (a set, an adjustment, a count, a transfer, a purchase receipt), never on reservations; the ETag
 * @param updatedAt (required) ISO-8601 UTC
 * @param safetyStock (required) Units reservations never take: the record's own value, else its location's default
 * @param lowStockThreshold (required) stock.low is published when available falls to this or below; 0: never
 * @param reservable (required) max(0, available - safetyStock): what a reservation can still take
 * @param inTransit (required) Units shipped here by transfers and not yet received: not on hand, not reservable
 * @param incoming (required) Units on their way here: what open purchase orders still expect, plus inTransit
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record StockRecord(String sku, String location, long onHand, long held, long committed, long available, long version, Instant updatedAt, long safetyStock, long lowStockThreshold, long reservable, long inTransit, long incoming) {
}
