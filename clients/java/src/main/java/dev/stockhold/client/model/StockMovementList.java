package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The StockMovementList object of the API.
 *
 * @param items (required)
 * @param nextCursor (optional) Pass as cursor to read the next (older) page; absent on the last page
 * @param watermark (optional) The time of the record's newest entry, as a cursor: pass it as asOfCursor of a snapshot at this location counted after this read, and only what the ledger records after it is applied on top of the count. On a first page without to or kind, when the record has entries
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record StockMovementList(List<StockMovement> items, String nextCursor, String watermark) {

    /** The required fields; the optional ones are absent. */
    public static StockMovementList of(List<StockMovement> items) {
        return new StockMovementList(items, null, null);
    }

    /** A copy with {@code nextCursor} set. */
    public StockMovementList withNextCursor(String value) {
        return new StockMovementList(items, value, watermark);
    }

    /** A copy with {@code watermark} set. */
    public StockMovementList withWatermark(String value) {
        return new StockMovementList(items, nextCursor, value);
    }
}
