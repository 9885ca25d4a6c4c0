package dev.stockhold.client.model;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The AvailableToPromise object of the API.
 *
 * @param at (optional) The expected date of supply this quantity counts (ISO-8601 UTC); absent: now, from the shelf
 * @param quantity (required) Units a reservation could be given or promised by then: reservable now plus supply expected by then and not promised to anyone
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AvailableToPromise(Instant at, long quantity) {

    /** The required fields; the optional ones are absent. */
    public static AvailableToPromise of(long quantity) {
        return new AvailableToPromise(null, quantity);
    }

    /** A copy with {@code at} set. */
    public AvailableToPromise withAt(Instant value) {
        return new AvailableToPromise(value, quantity);
    }
}
