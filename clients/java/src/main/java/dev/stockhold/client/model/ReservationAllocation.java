package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationAllocation object of the API.
 *
 * @param location (required)
 * @param quantity (required)
 * @param fulfilled (optional) Deferred fulfilment, once confirmed: units fulfilled here
 * @param released (optional) Deferred fulfilment, once confirmed: units released here
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReservationAllocation(String location, int quantity, Integer fulfilled, Integer released) {

    /** The required fields; the optional ones are absent. */
    public static ReservationAllocation of(String location, int quantity) {
        return new ReservationAllocation(location, quantity, null, null);
    }

    /** A copy with {@code fulfilled} set. */
    public ReservationAllocation withFulfilled(Integer value) {
        return new ReservationAllocation(location, quantity, value, released);
    }

    /** A copy with {@code released} set. */
    public ReservationAllocation withReleased(Integer value) {
        return new ReservationAllocation(location, quantity, fulfilled, value);
    }
}
