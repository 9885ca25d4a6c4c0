package dev.stockhold.client.model;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The ReservationLine object of the API.
 *
 * @param sku (required)
 * @param quantity (required) Units reserved (0 only for a partial line that got none)
 * @param location (optional) The location that serves the line; on a split or partial reservation, the location the request named (absent when it named none: see allocations)
 * @param fulfilled (optional) Deferred fulfilment, once confirmed: units fulfilled
 * @param released (optional) Deferred fulfilment, once confirmed: units released; quantity - fulfilled - released stay committed
 * @param allocations (optional) Split or partial reservations: the locations that serve the line, in allocation order
 * @param shortfall (optional) Partial reservations: units asked for and not reserved
 * @param backordered (optional) Backorder: units promised from incoming supply and not yet allocated (quantity is what is held)
 * @param promisedAt (optional) Backorder: when the last supply this line waits for is expected (ISO-8601 UTC)
 * @param unpromised (optional) Backorder: units whose supply fell short with no other supply to promise them
 * @param components (optional) A kit line: the component units it holds, per location (quantity and allocations count kit units)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ReservationLine(String sku, int quantity, String location, Integer fulfilled, Integer released, List<ReservationAllocation> allocations, Integer shortfall, Integer backordered, Instant promisedAt, Integer unpromised, List<ReservationKitComponent> components) {

    /** The required fields; the optional ones are absent. */
    public static ReservationLine of(String sku, int quantity) {
        return new ReservationLine(sku, quantity, null, null, null, null, null, null, null, null, null);
    }

    /** A copy with {@code location} set. */
    public ReservationLine withLocation(String value) {
        return new ReservationLine(sku, quantity, value, fulfilled, released, allocations, shortfall, backordered, promisedAt, unpromised, components);
    }

    /** A copy with {@code fulfilled} set. */
    public ReservationLine withFulfilled(Integer value) {
        return new ReservationLine(sku, quantity, location, value, released, allocations, shortfall, backordered, promisedAt, unpromised, components);
    }

    /** A copy with {@code released} set. */
    public ReservationLine withReleased(Integer value) {
        return new ReservationLine(sku, quantity, location, fulfilled, value, allocations, shortfall, backordered, promisedAt, unpromised, components);
    }

    /** A copy with {@code allocations} set. */
    public ReservationLine withAllocations(List<ReservationAllocation> value) {
        return new ReservationLine(sku, quantity, location, fulfilled, released, value, shortfall, backordered, promisedAt, unpromised, components);
    }

    /** A copy with {@code shortfall} set. */
    public ReservationLine withShortfall(Integer value) {
        return new ReservationLine(sku, quantity, location, fulfilled, released, allocations, value, backordered, promisedAt, unpromised, components);
    }

    /** A copy with {@code backordered} set. */
    public ReservationLine withBackordered(Integer value) {
        return new ReservationLine(sku, quantity, location, fulfilled, released, allocations, shortfall, value, promisedAt, unpromised, components);
    }

    /** A copy with {@code promisedAt} set. */
    public ReservationLine withPromisedAt(Instant value) {
        return new ReservationLine(sku, quantity, location, fulfilled, released, allocations, shortfall, backordered, value, unpromised, components);
    }

    /** A copy with {@code unpromised} set. */
    public ReservationLine withUnpromised(Integer value) {
        return new ReservationLine(sku, quantity, location, fulfilled, released, allocations, shortfall, backordered, promisedAt, value, components);
    }

    /** A copy with {@code components} set. */
    public ReservationLine withComponents(List<ReservationKitComponent> value) {
        return new ReservationLine(sku, quantity, location, fulfilled, released, allocations, shortfall, backordered, promisedAt, unpromised, value);
    }
}
