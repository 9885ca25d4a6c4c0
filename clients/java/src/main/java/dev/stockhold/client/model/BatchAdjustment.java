package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The BatchAdjustment object of the API.
 *
 * @param sku (required)
 * @param location (required)
 * @param delta (required) A non-zero JSON integer added to on hand
 * @param reason (optional) Why, for the stock.changed event and the movement
 * @param reference (optional) The document behind the change (an absolute URI), recorded in its movement
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BatchAdjustment(String sku, String location, long delta, String reason, String reference) {

    /** The required fields; the optional ones are absent. */
    public static BatchAdjustment of(String sku, String location, long delta) {
        return new BatchAdjustment(sku, location, delta, null, null);
    }

    /** A copy with {@code reason} set. */
    public BatchAdjustment withReason(String value) {
        return new BatchAdjustment(sku, location, delta, value, reference);
    }

    /** A copy with {@code reference} set. */
    public BatchAdjustment withReference(String value) {
        return new BatchAdjustment(sku, location, delta, reason, value);
    }
}
