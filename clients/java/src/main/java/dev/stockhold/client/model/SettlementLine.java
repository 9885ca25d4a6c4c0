package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The SettlementLine object of the API.
 *
 * @param sku (required)
 * @param location (optional) The line's location; may be left out when the reservation has the sku at one location only
 * @param quantity (required)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SettlementLine(String sku, String location, int quantity) {

    /** The required fields; the optional ones are absent. */
    public static SettlementLine of(String sku, int quantity) {
        return new SettlementLine(sku, null, quantity);
    }

    /** A copy with {@code location} set. */
    public SettlementLine withLocation(String value) {
        return new SettlementLine(sku, value, quantity);
    }
}
