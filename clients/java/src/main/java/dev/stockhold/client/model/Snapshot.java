package dev.stockhold.client.model;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Snapshot object of the API.
 *
 * @param location (required)
 * @param asOf (required) When the count was taken (ISO-8601 UTC)
 * @param mode (required)
 * @param records (required) Every record the count covered, sku order
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Snapshot(String location, Instant asOf, String mode, List<SnapshotResult> records) {
}
