package dev.stockhold.inventory;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.SortedMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The one door through which a reservation moves stock: a {@link Move} of the tenant's records by their quantities,
 * in the caller's transaction, writing the records, their ledger entries ({@link MovementLedger}) and the stock events
 * the change calls for ({@link StockEvents}) itself. Nothing else outside this package writes stock_records. Not
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
}
