package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The SnapshotCount object of the API.
 *
 * @param sku (required)
 * @param onHand (required) Units on the shelf at asOf
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SnapshotCount(String sku, long onHand) {
}
