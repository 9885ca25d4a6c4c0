package dev.stockhold.client.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Reservation object of the API.
 *
 * @param id (required)
 * @param status (required) PARTIALLY_FULFILLED and FULFILLED only with deferred fulfilment
 * @param lines (required)
 * @param expiresAt (required) ISO-8601 UTC
 * @param createdAt (required) ISO-8601 UTC
 * @param reference (optional) The client's order or cart id, when given
 * @param metadata (optional) The client's string pairs, when given
 * @param fulfilment (optional) deferred when the request asked for it: the confirm commits the units, fulfilments take them
 * @param allocation (optional) split or partial when the request asked for it: each line shows its allocations (and, partial, its shortfall)
 * @param channel (optional) The channel the request was allocated through, when it named one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Reservation(UUID id, ReservationStatus status, List<ReservationLine> lines, Instant expiresAt, Instant createdAt, String reference, Map<String, String> metadata, String fulfilment, String allocation, String channel) {

    /** The required fields; the optional ones are absent. */
    public static Reservation of(UUID id, ReservationStatus status, List<ReservationLine> lines, Instant expiresAt, Instant createdAt) {
        return new Reservation(id, status, lines, expiresAt, createdAt, null, null, null, null, null);
    }

    /** A copy with {@code reference} set. */
    public Reservation withReference(String value) {
        return new Reservation(id, status, lines, expiresAt, createdAt, value, metadata, fulfilment, allocation, channel);
    }

    /** A copy with {@code metadata} set. */
    public Reservation withMetadata(Map<String, String> value) {
        return new Reservation(id, status, lines, expiresAt, createdAt, reference, value, fulfilment, allocation, channel);
    }

    /** A copy with {@code fulfilment} set. */
    public Reservation withFulfilment(String value) {
        return new Reservation(id, status, lines, expiresAt, createdAt, reference, metadata, value, allocation, channel);
    }

    /** A copy with {@code allocation} set. */
    public Reservation withAllocation(String value) {
        return new Reservation(id, status, lines, expiresAt, createdAt, reference, metadata, fulfilment, value, channel);
    }

    /** A copy with {@code channel} set. */
    public Reservation withChannel(String value) {
        return new Reservation(id, status, lines, expiresAt, createdAt, reference, metadata, fulfilment, allocation, value);
    }
}
