package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The LocationRequest object of the API.
 *
 * @param priority (required) Allocation order: lower is tried first; ties by name
 * @param safetyStock (optional) Default safety stock of the location's records; absent: unchanged (0 for a new location)
 * @param lowStockThreshold (optional) Default low-stock threshold; absent: unchanged (0, never low, for a new location)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record LocationRequest(int priority, Long safetyStock, Long lowStockThreshold) {

    /** The required fields; the optional ones are absent. */
    public static LocationRequest of(int priority) {
        return new LocationRequest(priority, null, null);
    }

    /** A copy with {@code safetyStock} set. */
    public LocationRequest withSafetyStock(Long value) {
        return new LocationRequest(priority, value, lowStockThreshold);
    }

    /** A copy with {@code lowStockThreshold} set. */
    public LocationRequest withLowStockThreshold(Long value) {
        return new LocationRequest(priority, safetyStock, value);
    }
}
