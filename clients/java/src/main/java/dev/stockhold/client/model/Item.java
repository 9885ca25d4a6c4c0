package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Item object of the API.
 *
 * @param sku (required)
 * @param onHand (required) Sum over locations
 * @param held (required) Sum over locations
 * @param committed (required) Sum over locations
 * @param available (required) Sum over locations: onHand - held - committed
 * @param locations (required) Each location's record; through a channel, only its locations, in its order
 * @param channel (optional) The channel asked for: totals and records are over its locations only
 * @param availableToPromise (optional) What could be promised now (reservable) and by each expected date of incoming supply not yet promised, cumulative
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Item(String sku, long onHand, long held, long committed, long available, List<StockRecord> locations, String channel, List<AvailableToPromise> availableToPromise) {

    /** The required fields; the optional ones are absent. */
    public static Item of(String sku, long onHand, long held, long committed, long available, List<StockRecord> locations) {
        return new Item(sku, onHand, held, committed, available, locations, null, null);
    }

    /** A copy with {@code channel} set. */
    public Item withChannel(String value) {
        return new Item(sku, onHand, held, committed, available, locations, value, availableToPromise);
    }

    /** A copy with {@code availableToPromise} set. */
    public Item withAvailableToPromise(List<AvailableToPromise> value) {
        return new Item(sku, onHand, held, committed, available, locations, channel, value);
    }
}
