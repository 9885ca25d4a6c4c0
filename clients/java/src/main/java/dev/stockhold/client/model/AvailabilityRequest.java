package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The AvailabilityRequest object of the API.
 *
 * @param lines (required) The lines of the reservation to try, with the same rules as on create
 * @param allocation (optional) The allocation the reservation would ask for; default whole
 * @param channel (optional) Place and count only at this channel's locations, in its order; absent: every location
 * @param backorder (optional) allow: the dry run of a backorder reservation; each line shows what it would be promised from incoming supply and what is available to promise by date
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AvailabilityRequest(List<ReservationRequestLine> lines, String allocation, String channel, String backorder) {

    /** The required fields; the optional ones are absent. */
    public static AvailabilityRequest of(List<ReservationRequestLine> lines) {
        return new AvailabilityRequest(lines, null, null, null);
    }

    /** A copy with {@code allocation} set. */
    public AvailabilityRequest withAllocation(String value) {
        return new AvailabilityRequest(lines, value, channel, backorder);
    }

    /** A copy with {@code channel} set. */
    public AvailabilityRequest withChannel(String value) {
        return new AvailabilityRequest(lines, allocation, value, backorder);
    }

    /** A copy with {@code backorder} set. */
    public AvailabilityRequest withBackorder(String value) {
        return new AvailabilityRequest(lines, allocation, channel, value);
    }
}
