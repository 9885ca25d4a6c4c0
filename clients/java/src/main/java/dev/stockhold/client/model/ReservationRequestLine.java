package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationRequestLine object of the API.
 *
 * @param sku (required)
 * @param quantity (required) A JSON integer
 * @param location (optional) Reserve at this location only; absent: the first location in allocation order that covers the line
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReservationRequestLine(String sku, int quantity, String location) {

    /** The required fields; the optional ones are absent. */
    public static ReservationRequestLine of(String sku, int quantity) {
        return new ReservationRequestLine(sku, quantity, null);
    }

    /** A copy with {@code location} set. */
    public ReservationRequestLine withLocation(String value) {
        return new ReservationRequestLine(sku, quantity, value);
    }
}
