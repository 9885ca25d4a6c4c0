package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The SetOnHandRequest object of the API.
 *
 * @param onHand (required) A JSON integer
 * @param reference (optional) The document behind the count (an absolute URI), recorded in its movement
 * @param safetyStock (optional) The record's own safety stock: units reservations never take; absent: unchanged (a new record takes its location's default)
 * @param lowStockThreshold (optional) The record's own low-stock threshold (0: never low); absent: unchanged
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SetOnHandRequest(long onHand, String reference, Long safetyStock, Long lowStockThreshold) {

    /** The required fields; the optional ones are absent. */
    public static SetOnHandRequest of(long onHand) {
        return new SetOnHandRequest(onHand, null, null, null);
    }

    /** A copy with {@code reference} set. */
    public SetOnHandRequest withReference(String value) {
        return new SetOnHandRequest(onHand, value, safetyStock, lowStockThreshold);
    }

    /** A copy with {@code safetyStock} set. */
    public SetOnHandRequest withSafetyStock(Long value) {
        return new SetOnHandRequest(onHand, reference, value, lowStockThreshold);
    }

    /** A copy with {@code lowStockThreshold} set. */
    public SetOnHandRequest withLowStockThreshold(Long value) {
        return new SetOnHandRequest(onHand, reference, safetyStock, value);
    }
}
