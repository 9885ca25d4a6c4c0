package dev.stockhold.client.model;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The IncomingRequest object of the API.
 *
 * @param quantity (required)
 * @param expectedAt (required) When the units are expected (RFC 3339)
 * @param reference (optional) The client's document
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record IncomingRequest(long quantity, Instant expectedAt, String reference) {

    /** The required fields; the optional ones are absent. */
    public static IncomingRequest of(long quantity, Instant expectedAt) {
        return new IncomingRequest(quantity, expectedAt, null);
    }

    /** A copy with {@code reference} set. */
    public IncomingRequest withReference(String value) {
        return new IncomingRequest(quantity, expectedAt, value);
    }
}
