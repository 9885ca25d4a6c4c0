package dev.stockhold.client.model;

import java.math.BigDecimal;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The OutboxSummary object of the API.
 *
 * @param pending (required)
 * @param dead (required)
 * @param oldestPendingAgeSeconds (required)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OutboxSummary(long pending, long dead, BigDecimal oldestPendingAgeSeconds) {
}
