package dev.stockhold.client;

import java.util.stream.Stream;

import dev.stockhold.client.model.AdjustmentRequest;
import dev.stockhold.client.model.BatchAdjustmentRequest;
import dev.stockhold.client.model.Item;
import dev.stockhold.client.model.SetOnHandRequest;
import dev.stockhold.client.model.SetStockRequest;
import dev.stockhold.client.model.Snapshot;
import dev.stockhold.client.model.SnapshotRequest;
import dev.stockhold.client.model.StockMovement;
import dev.stockhold.client.model.StockMovementList;
import dev.stockhold.client.model.StockRecord;
import dev.stockhold.client.model.StockRecordList;

/** Stock records: read them, set and adjust them, count a location, read the ledger. */
public final class Stock {

    private final Calls calls;

    Stock(Calls calls) {
        this.calls = calls;
    }

    /** A sku over its locations (through {@code channel}'s locations when not null). */
    public Item item(String sku, String channel) {
        return calls.send(Request.of(Operation.ITEM, sku).query("channel", channel), Item.class).value();
    }

    /** The v1 set: the free-to-reserve quantity at location {@code default}. */
    public Item setAvailable(String sku, long available) {
        return calls.send(Request.of(Operation.ITEM_PUT, sku).body(new SetStockRequest(available)), Item.class).value();
    }

    /** One record, with its version (also in {@code value().version()}). */
    public Answer<StockRecord> record(String sku, String location) {
        return calls.send(Request.of(Operation.RECORD, sku, location), StockRecord.class);
    }

    /** The tenant's records, sku then location, read page by page as the stream goes. */
    public Stream<StockRecord> records(Query filters) {
        return Pages.stream(cursor -> {
            StockRecordList page = calls.send(filters.applyTo(Request.of(Operation.RECORDS)).query("cursor", cursor), StockRecordList.class).value();
            return new Pages.Page<>(page.items(), page.nextCursor());
        });
    }

    /** Sets on hand whatever the record's version (a count that must win). */
    public Answer<StockRecord> set(String sku, String location, SetOnHandRequest request) {
        return calls.send(Request.of(Operation.RECORD_PUT, sku, location).body(request), StockRecord.class);
    }

    /**
     * Sets on hand only if the record is still the version that was read ({@code If-Match} from it): a change since is
     * {@link Problems.PreconditionFailed}, and nothing is overwritten.
     */
    public Answer<StockRecord> setIfUnchanged(StockRecord read, SetOnHandRequest request) {
        return calls.send(Request.of(Operation.RECORD_PUT, read.sku(), read.location()).ifMatch(Long.toString(read.version())).body(request),
                StockRecord.class);
    }

    public Answer<StockRecord> adjust(String sku, String location, AdjustmentRequest request) {
        return adjust(sku, location, request, null);
    }

    /** Adds a delta, once however many attempts it takes: {@code key} (or a new UUID) goes with every attempt. */
    public Answer<StockRecord> adjust(String sku, String location, AdjustmentRequest request, String key) {
        return calls.send(Request.of(Operation.ADJUST, sku, location).key(key).body(request), StockRecord.class);
    }

    public Answer<StockRecordList> adjustMany(BatchAdjustmentRequest request, String key) {
        return calls.send(Request.of(Operation.ADJUST_MANY).key(key).body(request), StockRecordList.class);
    }

    /** A warehouse count of one location, as of a time; the answer has each record's drift. */
    public Answer<Snapshot> snapshot(String location, SnapshotRequest request, String key) {
        return calls.send(Request.of(Operation.SNAPSHOT, location).key(key).body(request), Snapshot.class);
    }

    /** The record's ledger, newest first ({@code from}, {@code to}, {@code kind} filters), page by page. */
    public Stream<StockMovement> movements(String sku, String location, Query filters) {
        return Pages.stream(cursor -> {
            StockMovementList page = calls.send(filters.applyTo(Request.of(Operation.MOVEMENTS, sku, location)).query("cursor", cursor),
                    StockMovementList.class).value();
            return new Pages.Page<>(page.items(), page.nextCursor());
        });
    }
}
