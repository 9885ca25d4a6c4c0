package dev.stockhold.client.model;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The AvailabilityLine object of the API.
 *
 * @param sku (required)
 * @param quantity (required) Units asked for
 * @param location (optional) The location the line names, when it names one
 * @param reservable (required) Whether this line would be served as asked (partial: in full)
 * @param available (required) Available units at each location that may serve the line, in allocation order; empty for an unknown sku
 * @param placement (required) Where a reservation made now would take the units; empty when it would not serve the line
 * @param shortfall (optional) Partial allocation: units the line would not get
 * @param backordered (optional) Backorder: units the line would be promised from incoming supply
 * @param promisedAt (optional) Backorder: when the last supply those units wait for is expected
 * @param availableToPromise (optional) Backorder: what could be promised to the line now and by each expected date, cumulative
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AvailabilityLine(String sku, int quantity, String location, boolean reservable, List<AvailabilityStock> available, List<ReservationAllocation> placement, Integer shortfall, Integer backordered, Instant promisedAt, List<AvailableToPromise> availableToPromise) {

    /** The required fields; the optional ones are absent. */
    public static AvailabilityLine of(String sku, int quantity, boolean reservable, List<AvailabilityStock> available, List<ReservationAllocation> placement) {
        return new AvailabilityLine(sku, quantity, null, reservable, available, placement, null, null, null, null);
    }

    /** A copy with {@code location} set. */
    public AvailabilityLine withLocation(String value) {
        return new AvailabilityLine(sku, quantity, value, reservable, available, placement, shortfall, backordered, promisedAt, availableToPromise);
    }

    /** A copy with {@code shortfall} set. */
    public AvailabilityLine withShortfall(Integer value) {
        return new AvailabilityLine(sku, quantity, location, reservable, available, placement, value, backordered, promisedAt, availableToPromise);
    }

    /** A copy with {@code backordered} set. */
    public AvailabilityLine withBackordered(Integer value) {
        return new AvailabilityLine(sku, quantity, location, reservable, available, placement, shortfall, value, promisedAt, availableToPromise);
    }

    /** A copy with {@code promisedAt} set. */
    public AvailabilityLine withPromisedAt(Instant value) {
        return new AvailabilityLine(sku, quantity, location, reservable, available, placement, shortfall, backordered, value, availableToPromise);
    }

    /** A copy with {@code availableToPromise} set. */
    public AvailabilityLine withAvailableToPromise(List<AvailableToPromise> value) {
        return new AvailabilityLine(sku, quantity, location, reservable, available, placement, shortfall, backordered, promisedAt, value);
    }
}
