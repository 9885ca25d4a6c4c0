package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The PurchaseReceiptRequest object of the API.
 *
 * @param quantity (required) Units that arrived; at most what is still expected (0 only to close)
 * @param close (optional) This is the order's last receipt: what it still expected after it will not come (the order closes, and lines promised the rest are promised the next supply). Default false
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PurchaseReceiptRequest(long quantity, Boolean close) {

    /** The required fields; the optional ones are absent. */
    public static PurchaseReceiptRequest of(long quantity) {
        return new PurchaseReceiptRequest(quantity, null);
    }

    /** A copy with {@code close} set. */
    public PurchaseReceiptRequest withClose(Boolean value) {
        return new PurchaseReceiptRequest(quantity, value);
    }
}
