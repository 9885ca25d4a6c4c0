package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Location object of the API.
 *
 * @param location (required)
 * @param priority (required)
 * @param safetyStock (required) Safety stock of the location's records that have none of their own
 * @param lowStockThreshold (required) Low-stock threshold of the location's records that have none of their own; 0: never low
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Location(String location, int priority, long safetyStock, long lowStockThreshold) {
}
