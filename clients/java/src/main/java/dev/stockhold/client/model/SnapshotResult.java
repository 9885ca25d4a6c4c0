package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The SnapshotResult object of the API.
 *
 * @param sku (required)
 * @param status (required) applied: on hand is the count plus what changed since asOf; stale: a count as new or newer was applied already; below-held: that would be below held + committed; kept: a full count did not list this record and it has held or committed units. Only applied changes anything
 * @param counted (required) Units counted (0 for a record a full count did not list)
 * @param before (required) On hand before
 * @param after (required) On hand after
 * @param drift (required) after - before: what the count corrected
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SnapshotResult(String sku, String status, long counted, long before, long after, long drift) {
}
