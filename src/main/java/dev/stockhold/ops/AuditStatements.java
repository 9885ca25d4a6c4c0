package dev.stockhold.ops;

import dev.stockhold.reservation.ReservationStatus;

/**
 * The auditor's statements ({@link InvariantAuditor}): a sample or the known violators with their figures and sums,
 * the held sweep over every active hold, and the ledger chain since the last audit, each planned for index paths only.
 */
final class AuditStatements {

    /**
     * Index paths and nested loops only, no parallel workers (whose start cost a background sample more than its
     * reads) and no JIT (the disabled paths' costs pass its threshold, and compiling took longer than the reads), for
     * this read-only transaction (SET LOCAL).
     */
    static final String PLAN = "SET LOCAL enable_seqscan = off; SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off;"
            + " SET LOCAL enable_bitmapscan = off; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off";
    /**
     * HELD quantities per record of the batch's tenants, from active holds only; MATERIALIZED, so they are summed once
     * per run: expecting a batch of one row, the planner summed them again for every record of the batch.
     */
    private static final String HELD = """
            held AS MATERIALIZED (
                SELECT r.tenant_id, l.sku, coalesce(l.location, 'default') AS location, sum(l.quantity) AS quantity
                  FROM reservations r JOIN reservation_lines l ON l.reservation_id = r.id
                 WHERE %s AND r.tenant_id IN (SELECT DISTINCT tenant_id FROM batch)
                 GROUP BY 1, 2, 3),
            """.formatted(ReservationStatus.sqlIn("r.status", ReservationStatus.holding()));
    /**
     * What open transfers still carry to each record, and what open purchase orders still expect there, for the batch's
     * tenants: summed once per run from the open ones only (their partial indexes), as the held and committed sums are.
     */
    private static final String SUPPLY = """
            ,
            transit AS MATERIALIZED (
                SELECT t.tenant_id, t.sku, t.to_location AS location, sum(t.quantity - t.received - t.returned) AS quantity
                  FROM transfers t WHERE t.status = 'IN_TRANSIT' AND t.tenant_id IN (SELECT DISTINCT tenant_id FROM batch)
                 GROUP BY 1, 2, 3),
            expected AS MATERIALIZED (
                SELECT o.tenant_id, o.sku, o.location, sum(o.quantity - o.received) AS quantity
                  FROM purchase_orders o WHERE o.status = 'OPEN' AND o.tenant_id IN (SELECT DISTINCT tenant_id FROM batch)
                 GROUP BY 1, 2, 3)
            """;
    /** How many of a record's supply figures disagree with their sources (0 when none): in transit, incoming. */
    private static final String SUPPLY_MISMATCHES = "(b.in_transit <> coalesce(t.quantity, 0))::int + (b.incoming <> coalesce(x.quantity, 0))::int";

    /** Open quantities of confirmed deferred reservations per record of the batch's tenants, summed once per run. */
    private static final String COMMITTED = """
            committed AS MATERIALIZED (
                SELECT r.tenant_id, l.sku, coalesce(l.location, 'default') AS location,
                       sum(l.quantity - l.fulfilled - l.released) AS quantity
                  FROM reservations r JOIN reservation_lines l ON l.reservation_id = r.id
                 WHERE %s AND r.fulfilment IS NOT NULL
                   AND r.tenant_id IN (SELECT DISTINCT tenant_id FROM batch)
                 GROUP BY 1, 2, 3)
            """.formatted(ReservationStatus.sqlIn("r.status", ReservationStatus.committing()));

    /**
     * Records of the batch ({@code batch}: which ones) with their figures, the committed quantities at each, and the
     * HELD ones where {@code sumHeld}; otherwise the record's own held figure stands in (held is then the sweep's to
     * check), so the statement never walks the active holds.
     */
    private static String audit(String batch, boolean sumHeld) {
        return """
                WITH batch AS MATERIALIZED (
                    SELECT tenant_id, sku, location, on_hand, held, received, sold, committed, movements, in_transit, incoming
                      FROM stock_records %s),
                %s%s%s
                SELECT b.tenant_id, b.sku, b.location, b.on_hand, b.held, b.received, b.sold, %s, b.committed,
                       coalesce(k.quantity, 0), b.movements, coalesce(m.seq, 0), coalesce(m.on_hand_after, 0), coalesce(m.committed_after, 0),
                       %s
                  FROM batch b%s
                  LEFT JOIN committed k ON k.tenant_id = b.tenant_id AND k.sku = b.sku AND k.location = b.location
                  LEFT JOIN transit t ON t.tenant_id = b.tenant_id AND t.sku = b.sku AND t.location = b.location
                  LEFT JOIN expected x ON x.tenant_id = b.tenant_id AND x.sku = b.sku AND x.location = b.location
                  LEFT JOIN LATERAL (
                       SELECT seq, on_hand_after, committed_after FROM stock_movements m
                        WHERE m.tenant_id = b.tenant_id AND m.sku = b.sku AND m.location = b.location ORDER BY seq DESC LIMIT 1) m ON true
                 ORDER BY b.tenant_id, b.sku, b.location
                """
                .formatted(batch, sumHeld ? HELD : "", COMMITTED.stripTrailing(), SUPPLY, sumHeld ? "coalesce(h.quantity, 0)" : "b.held",
                        SUPPLY_MISMATCHES,
                        sumHeld ? " LEFT JOIN held h ON h.tenant_id = b.tenant_id AND h.sku = b.sku AND h.location = b.location" : "");
    }

    /**
     * The ledger entries of each given record from a seq on, checked link by link: each entry's seq follows the one
     * before, and its figures are the one before plus its deltas. Reads only the entries since the record's last audit
     * (at most {@link InvariantAuditor#FIRST_VISIT} on a record's first): its cost is bounded by new entries, never by history.
     */
    static final String CHAIN = """
            WITH w AS (SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::bigint[]) AS w(tenant_id, sku, location, from_seq))
            SELECT w.tenant_id, w.sku, w.location, max(e.seq),
                   count(*) FILTER (WHERE e.prev_seq IS NOT NULL AND (e.seq <> e.prev_seq + 1
                                    OR e.on_hand_after <> e.prev_on_hand + e.on_hand_delta
                                    OR e.committed_after <> e.prev_committed + e.committed_delta))
              FROM w CROSS JOIN LATERAL (
                   SELECT seq, on_hand_delta, committed_delta, on_hand_after, committed_after,
                          lag(seq) OVER o AS prev_seq, lag(on_hand_after) OVER o AS prev_on_hand,
                          lag(committed_after) OVER o AS prev_committed
                     FROM stock_movements m
                    WHERE m.tenant_id = w.tenant_id AND m.sku = w.sku AND m.location = w.location AND m.seq >= w.from_seq
                   WINDOW o AS (ORDER BY seq)) e
             GROUP BY 1, 2, 3
            """;
    /** The next sample after a position, held left to the sweep. */
    static final String SAMPLE = audit("WHERE (tenant_id, sku, location) > (?, ?, ?) ORDER BY tenant_id, sku, location LIMIT ?",
            false);
    /**
     * The records that failed before (and those the sweep found wrong), all in one statement, held included: the held
     * and committed sums are taken once per run however many records are known to fail (one statement per record summed
     * the tenant's active holds once per record).
     */
    static final String KNOWN = audit(
            "WHERE (tenant_id, sku, location) IN (SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::varchar[]))", true);
    /**
     * The records whose held differs from the HELD quantities there, from one walk of the active holds: a record holding
     * units without lines, lines at a record holding none, or a different sum. A FULL JOIN runs as a hash or merge join
     * whatever the statistics say (a nested loop cannot run it), so the comparison is bounded by the holds and the
     * records holding any, and only the disagreeing ones leave the database.
     */
    static final String HELD_SWEEP = """
            WITH sums AS MATERIALIZED (
                SELECT r.tenant_id, l.sku, coalesce(l.location, 'default') AS location, sum(l.quantity) AS quantity
                  FROM reservations r JOIN reservation_lines l ON l.reservation_id = r.id
                 WHERE %s
                 GROUP BY 1, 2, 3),
            holding AS MATERIALIZED (SELECT tenant_id, sku, location, held FROM stock_records WHERE held <> 0)
            SELECT coalesce(h.tenant_id, s.tenant_id), coalesce(h.sku, s.sku), coalesce(h.location, s.location)
              FROM holding h FULL JOIN sums s ON s.tenant_id = h.tenant_id AND s.sku = h.sku AND s.location = h.location
             WHERE coalesce(h.held, 0) <> coalesce(s.quantity, 0)
            """.formatted(ReservationStatus.sqlIn("r.status", ReservationStatus.holding()));

    private AuditStatements() {
    }
}
