package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Availability object of the API.
 *
 * @param reservable (required) Whether POST /v1/reservations with these lines would be placed now
 * @param allocation (required)
 * @param lines (required)
 * @param channel (optional) The channel the request named: only its locations count, in its order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Availability(boolean reservable, String allocation, List<AvailabilityLine> lines, String channel) {

    /** The required fields; the optional ones are absent. */
    public static Availability of(boolean reservable, String allocation, List<AvailabilityLine> lines) {
        return new Availability(reservable, allocation, lines, null);
    }

    /** A copy with {@code channel} set. */
    public Availability withChannel(String value) {
        return new Availability(reservable, allocation, lines, value);
    }
}
