package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The BatchAdjustmentRequest object of the API.
 *
 * @param adjustments (required) Distinct (sku, location) records, each with its delta
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BatchAdjustmentRequest(List<BatchAdjustment> adjustments) {
}
