package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The StockRecordList object of the API.
 *
 * @param items (required)
 * @param nextCursor (optional) Pass as cursor to read the next page; absent on the last page
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record StockRecordList(List<StockRecord> items, String nextCursor) {

    /** The required fields; the optional ones are absent. */
    public static StockRecordList of(List<StockRecord> items) {
        return new StockRecordList(items, null);
    }

    /** A copy with {@code nextCursor} set. */
    public StockRecordList withNextCursor(String value) {
        return new StockRecordList(items, value);
    }
}
