package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The AdjustmentRequest object of the API.
 *
 * @param delta (required) A non-zero JSON integer added to on hand
 * @param reason (optional) Why, for the stock.changed event
 * @param reference (optional) The document behind the change (an absolute URI), recorded in its movement
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AdjustmentRequest(long delta, String reason, String reference) {

    /** The required fields; the optional ones are absent. */
    public static AdjustmentRequest of(long delta) {
        return new AdjustmentRequest(delta, null, null);
    }

    /** A copy with {@code reason} set. */
    public AdjustmentRequest withReason(String value) {
        return new AdjustmentRequest(delta, value, reference);
    }

    /** A copy with {@code reference} set. */
    public AdjustmentRequest withReference(String value) {
        return new AdjustmentRequest(delta, reason, value);
    }
}
