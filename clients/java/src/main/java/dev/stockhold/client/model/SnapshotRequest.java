package dev.stockhold.client.model;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The SnapshotRequest object of the API.
 *
 * @param asOf (optional) When the count was taken (RFC 3339): changes Stockhold recorded after it are applied on top. Exactly one of asOf and asOfCursor
 * @param asOfCursor (optional) The watermark of a movements page read (GET .../stock/{location}/movements) before the count: changes the ledger recorded after it are applied on top. Exactly one of asOf and asOfCursor
 * @param mode (optional) partial (default): only the records listed; full: also the location's records not listed are counted as 0
 * @param records (required) Distinct skus with the units counted
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SnapshotRequest(Instant asOf, String asOfCursor, String mode, List<SnapshotCount> records) {

    /** The required fields; the optional ones are absent. */
    public static SnapshotRequest of(List<SnapshotCount> records) {
        return new SnapshotRequest(null, null, null, records);
    }

    /** A copy with {@code asOf} set. */
    public SnapshotRequest withAsOf(Instant value) {
        return new SnapshotRequest(value, asOfCursor, mode, records);
    }

    /** A copy with {@code asOfCursor} set. */
    public SnapshotRequest withAsOfCursor(String value) {
        return new SnapshotRequest(asOf, value, mode, records);
    }

    /** A copy with {@code mode} set. */
    public SnapshotRequest withMode(String value) {
        return new SnapshotRequest(asOf, asOfCursor, value, records);
    }
}
