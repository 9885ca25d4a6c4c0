package dev.stockhold.inventory;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.events.StockChangedV1;

/**
 * The one door through which a reservation moves stock: a {@link Move} of the tenant's records by their quantities,
 * in the caller's transaction, writing the records, their ledger entries ({@link MovementLedger}) and the stock events
 * the change calls for ({@link StockEvents}) itself; and the door of transfers ({@link #ship}, {@link #receive},
 * {@link #giveBack}). Nothing else outside this package writes stock_records. Not
 * intercepted: it is on every reservation's path, and every caller already runs in a transaction.
 */
@ApplicationScoped
public class StockMoves {

    @Inject
    StockRecords records;
    @Inject
    Candidates candidates;
    @Inject
    StockEvents events;
    @Inject
    TransitRecords transit;
    @Inject
    LocationRepository locations;

    /**
     * Moves every record by its quantity in one statement, locking them in {@link StockKey} order; when every record
     * moved, writes the stock events of the change.
     *
     * @param lockWait how long to wait for a record another transaction holds (set in the same round trip); null: as is
     * @param source who and what caused the move, as a ledger entry records it
     * @return the records as moved; fewer than asked when some record did not meet the move's condition (then no event
     *         was written, and the caller refuses and rolls back)
     */
    public List<StockRecord> move(Move move, String tenantId, SortedMap<StockKey, Long> quantities, Source source, Duration lockWait,
            Instant now) {
        List<StockRecord> moved = records.move(move, tenantId, quantities, lockWait, source);
        if (moved.size() == quantities.size()) {
            events.moved(tenantId, move, moved, quantities, now);
        }
        return moved;
    }

    /**
     * The records of these skus, in allocation order (location priority, 100 unless set, then name), with their
     * reservable.
     *
     * @param lockWait how long this transaction's later statements may wait for a lock; set in the same round trip
     */
    public List<Candidate> candidates(String tenantId, Collection<String> skus, Duration lockWait) {
        return candidates.read(tenantId, skus, lockWait);
    }

    /**
     * The same records, locked until the caller's transaction ends: what they have cannot change before the caller's
     * holds. For requests that split or take what there is, whose quantities depend on that.
     */
    public List<Candidate> lockCandidates(String tenantId, Collection<String> skus) {
        return candidates.lock(tenantId, skus);
    }

    /** The two ends of a transfer as a move left them. */
    public record Ends(StockRecord from, StockRecord to) {
    }

    /** Why a transfer could not be shipped: the origin has no record of the sku, or not enough units above what it keeps. */
    public static final class NotShippable extends RuntimeException {
        /** The origin as it is; null when it has no record of the sku. */
        public final transient StockRecord from;

        NotShippable(StockRecord from) {
            super(null, null, false, false);
            this.from = from;
        }
    }

    /**
     * Ships units of a sku: on hand at {@code from} falls by the quantity (only above what is held, committed and kept as
     * safety stock there), in transit at {@code to} rises (its record, and location, created when absent). Both records are
     * locked in location order; each gets a ledger entry naming the transfer, and the stock events its change calls for.
     *
     * @throws NotShippable when the origin cannot give the units (nothing changed)
     */
    public Ends ship(String tenantId, String sku, String from, String to, long quantity, UUID transfer, Source source, Instant now) {
        locations.ensure(tenantId, to);
        transit.create(tenantId, new StockKey(sku, to));
        StockRecord origin = transit.lockEnds(tenantId, sku, from, to).stream().filter(r -> r.location().equals(from)).findFirst()
                .orElseThrow(() -> new NotShippable(null));
        StockRecord shipped = transit.move(TransitStatements.OUT, tenantId, origin.key(), quantity, transfer, source)
                .orElseThrow(() -> new NotShippable(origin));
        StockRecord bound = transit.move(TransitStatements.IN_TRANSIT, tenantId, new StockKey(sku, to), quantity, transfer, source)
                .orElseThrow();
        events.changed(tenantId, StockChangedV1.Kind.TRANSFER, shipped.withAvailableMovedBy(quantity), shipped, -quantity, null, now);
        return new Ends(shipped, bound);
    }

    /** Receives units of a transfer at its destination: from in transit to on hand there. Empty when fewer are in transit. */
    public java.util.Optional<StockRecord> receive(String tenantId, StockKey at, long quantity, UUID transfer, Source source,
            Instant now) {
        java.util.Optional<StockRecord> received = transit.move(TransitStatements.IN, tenantId, at, quantity, transfer, source);
        received.ifPresent(r -> events.changed(tenantId, StockChangedV1.Kind.TRANSFER, r.withAvailableMovedBy(-quantity), r, quantity, null,
                now));
        return received;
    }

    /** Takes back what a cancelled transfer had not delivered: in transit at {@code to} falls, on hand at {@code from} rises. */
    public Ends giveBack(String tenantId, String sku, String from, String to, long quantity, UUID transfer, Source source, Instant now) {
        transit.lockEnds(tenantId, sku, from, to);
        StockRecord returned = transit.move(TransitStatements.RETURN, tenantId, new StockKey(sku, from), quantity, transfer, source)
                .orElseThrow();
        StockRecord unbound = transit.move(TransitStatements.IN_TRANSIT, tenantId, new StockKey(sku, to), -quantity, transfer, source)
                .orElseThrow();
        events.changed(tenantId, StockChangedV1.Kind.TRANSFER, returned.withAvailableMovedBy(-quantity), returned, quantity, null, now);
        return new Ends(returned, unbound);
    }

    /** A purchase order expects units at a record (created, with its location, when absent): incoming rises. */
    public StockRecord expect(String tenantId, StockKey at, long quantity, UUID order) {
        locations.ensure(tenantId, at.location());
        transit.create(tenantId, at);
        return transit.move(TransitStatements.EXPECT, tenantId, at, quantity, order, Source.of(null))
                .orElseThrow(() -> Kits.haveNoStock(at.sku()));
    }

    /**
     * Units of a purchase order arrived: from incoming to on hand, with a ledger entry naming the order; and, when the
     * order closes, {@code noLongerExpected} more units leave incoming.
     */
    public StockRecord receivePurchase(String tenantId, StockKey at, long quantity, long noLongerExpected, UUID order, Source source,
            Instant now) {
        StockRecord after = null;
        if (quantity > 0) {
            after = transit.move(TransitStatements.PURCHASE_IN, tenantId, at, quantity, order, source).orElseThrow();
            StockRecord received = after;
            events.changed(tenantId, StockChangedV1.Kind.PURCHASE_RECEIPT, received.withAvailableMovedBy(-quantity), received, quantity,
                    null, now);
        }
        if (noLongerExpected > 0) {
            after = transit.move(TransitStatements.EXPECT, tenantId, at, -noLongerExpected, order, source).orElseThrow();
        }
        return after;
    }
}
