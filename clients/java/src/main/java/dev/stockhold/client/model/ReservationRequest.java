package dev.stockhold.client.model;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationRequest object of the API.
 *
 * @param lines (required) Distinct (sku, location) pairs; no sku both with and without a location
 * @param ttlSeconds (optional) Hold time; default: the setting stockhold.reservations.default-ttl-seconds
 * @param reference (optional) The client's order or cart id
 * @param metadata (optional) At most 16 string pairs: keys 1-40 characters, values up to 256
 * @param fulfilment (optional) When confirmed units leave on hand: at the confirm (immediate, the default) or by fulfilments (deferred: the confirm commits them)
 * @param allocation (optional) How a line without a location is served: whole by one location (the default), split across locations in allocation order, or partial (split, and each line gets what is available; the answer shows its shortfall)
 * @param channel (optional) Allocate only from this channel's locations, in the channel's order (PUT /v1/channels/{channel}); absent: every location of the tenant
 * @param backorder (optional) allow: what on hand cannot give a line (split across locations as allocation split does) is promised from incoming supply not yet promised, in expected-date order, and allocated when it arrives; refused when known supply cannot cover it. Only with allocation absent or split. Default deny
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReservationRequest(List<ReservationRequestLine> lines, Integer ttlSeconds, String reference, Map<String, String> metadata, String fulfilment, String allocation, String channel, String backorder) {

    /** The required fields; the optional ones are absent. */
    public static ReservationRequest of(List<ReservationRequestLine> lines) {
        return new ReservationRequest(lines, null, null, null, null, null, null, null);
    }

    /** A copy with {@code ttlSeconds} set. */
    public ReservationRequest withTtlSeconds(Integer value) {
        return new ReservationRequest(lines, value, reference, metadata, fulfilment, allocation, channel, backorder);
    }

    /** A copy with {@code reference} set. */
    public ReservationRequest withReference(String value) {
        return new ReservationRequest(lines, ttlSeconds, value, metadata, fulfilment, allocation, channel, backorder);
    }

    /** A copy with {@code metadata} set. */
    public ReservationRequest withMetadata(Map<String, String> value) {
        return new ReservationRequest(lines, ttlSeconds, reference, value, fulfilment, allocation, channel, backorder);
    }

    /** A copy with {@code fulfilment} set. */
    public ReservationRequest withFulfilment(String value) {
        return new ReservationRequest(lines, ttlSeconds, reference, metadata, value, allocation, channel, backorder);
    }

    /** A copy with {@code allocation} set. */
    public ReservationRequest withAllocation(String value) {
        return new ReservationRequest(lines, ttlSeconds, reference, metadata, fulfilment, value, channel, backorder);
    }

    /** A copy with {@code channel} set. */
    public ReservationRequest withChannel(String value) {
        return new ReservationRequest(lines, ttlSeconds, reference, metadata, fulfilment, allocation, value, backorder);
    }

    /** A copy with {@code backorder} set. */
    public ReservationRequest withBackorder(String value) {
        return new ReservationRequest(lines, ttlSeconds, reference, metadata, fulfilment, allocation, channel, value);
    }
}
