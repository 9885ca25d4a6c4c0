package dev.stockhold.outbox;

/**
 * The outbox's SQL for PostgreSQL, every statement on {@code outbox_events} and {@code event_sequences}, apart from the
 * code that runs it ({@link OutboxJdbc}) and the roles that use it: {@link OutboxPersistor} (the write that joins the
 * change's transaction), {@link RelayStore} (the relay's claim, mark, release and sweep, and retention),
 * {@link OutboxBacklog} and {@link DeadEvents} (what operators read and requeue). The statements of the relay, the
 * jobs and the admin are each their own short transaction (no row lock is held while the broker is called), sent in one
 * round trip, and each runs under {@link #PLAN}: the outbox is a queue table whose statistics are stale most of the
 * time (empty when analyzed, 40,000 pending an hour later), so no statement here may depend on them. Every statement is
 * written so that, with sequential scans, bitmaps, sorts, hash and merge joins off, the only plan left reads a partial
 * index in order and stops after what it needs: O(batch) or O(backlog), never O(retained history).
 * {@code OutboxPlanTest} checks each one on a copy with hostile statistics.
 */
final class OutboxDialect {

    private OutboxDialect() {
    }

    /** The planner settings every outbox statement runs with, for its own transaction only. */
    static final String PLAN = "SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off; "
            + "SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off";

    /**
     * For the relay's claim and mark, which every replica runs several times a second: planned once per connection,
     * not for the values of each call. With PostgreSQL's own choice the mark was planned anew on every call (a plan
     * for a batch of one looks cheaper than one for any batch). {@code OutboxPlanTest} checks these generic plans,
     * cached while the table was empty, against a backlog.
     */
    static final String ONE_PLAN = "SET LOCAL plan_cache_mode = force_generic_plan";

    /*
     * The claim (I6 ordering): walks outbox_events_pending_seq_idx in seq order and leases the first claimable rows
     * (time come, lease free or expired) whose aggregate has no earlier unpublished event. That check is a scalar
     * sub-select with LIMIT 1, which PostgreSQL runs per row and never turns into a join; "e.seq + 0" keeps the seq
     * indexes out of it, so its one possible index is outbox_events_unpublished_aggregate_idx probed by aggregate_id:
     * a few rows per candidate whatever the statistics or a cached generic plan say. The batch is collected by
     * ARRAY(...), run once, and leased by primary key: an IN (...) here may become a semi join that re-runs the whole walk
     * for every row of the table (a generic plan cached while the table looked empty did exactly that). Replicas skip
     * rows another claim holds (SKIP LOCKED) and lease what they take, so each row has one publisher at a time.
     */
    static final String CLAIM = """
            UPDATE outbox_events o
               SET locked_by = ?, locked_until = now() + ? * interval '1 millisecond'
             WHERE o.id = ANY (ARRAY(
                   SELECT c.id FROM outbox_events c
                    WHERE c.status = 'PENDING' AND c.available_at <= now()
                      AND (c.locked_until IS NULL OR c.locked_until < now())
                      AND (SELECT e.seq FROM outbox_events e
                            WHERE e.aggregate_id = c.aggregate_id AND e.status <> 'PUBLISHED' AND e.seq + 0 < c.seq
                            LIMIT 1) IS NULL
                    ORDER BY c.seq
                    LIMIT ?
                      FOR UPDATE SKIP LOCKED))
            RETURNING o.id, o.seq, o.tenant_id, o.aggregate_id, o.event_type, o.payload, o.attempts, o.created_at, o.traceparent,
                      o.partition_key
            """;

    /*
     * A batch's outcome, in one round trip: confirmed rows become PUBLISHED (MARK_PUBLISHED, by primary key); failed
     * ones (MARK_FAILED, rare) count an attempt and go back to pending at their retry time, or to DEAD when the failure
     * is permanent or the attempts are used up. The database alone decides deadness (RETURNING tells the relay), and
     * only for rows this relay still leases. The ids restrict the table directly, so whichever side of the failure join
     * the planner starts from, it reads one batch.
     */
    static final String MARK_PUBLISHED = """
            UPDATE outbox_events SET status = 'PUBLISHED', published_at = now(), locked_by = NULL, locked_until = NULL
             WHERE id = ANY (?::uuid[]) AND locked_by = ? AND status = 'PENDING'
            RETURNING id, status, attempts
            """;
    static final String MARK_FAILED = """
            UPDATE outbox_events o
               SET status = CASE WHEN m.permanent OR o.attempts + 1 >= ? THEN 'DEAD' ELSE 'PENDING' END,
                   attempts = o.attempts + 1, last_error = m.reason || ': ' || m.message, available_at = m.retry_at,
                   locked_by = NULL, locked_until = NULL
              FROM unnest(?::uuid[], ?::text[], ?::text[], ?::boolean[], ?::timestamptz[])
                   AS m(id, reason, message, permanent, retry_at)
             WHERE o.id = m.id AND o.id = ANY (?::uuid[]) AND o.locked_by = ? AND o.status = 'PENDING'
            RETURNING o.id, o.status, o.attempts
            """;

    /** Leases handed back without charging an attempt: the broker was unreachable, or the relay is stopping. */
    static final String RELEASE = """
            WITH released AS (
                UPDATE outbox_events SET locked_by = NULL, locked_until = NULL
                 WHERE id = ANY (?) AND locked_by = ? AND status = 'PENDING' RETURNING 1)
            SELECT count(*) FROM released
            """;
    static final String RELEASE_ALL = """
            WITH released AS (
                UPDATE outbox_events SET locked_by = NULL, locked_until = NULL
                 WHERE status = 'PENDING' AND locked_by = ? RETURNING 1)
            SELECT count(*) FROM released
            """;
    /** Leases whose relay died: read through the pending index, so the cost follows the backlog, not the history. */
    static final String SWEEP = """
            WITH swept AS (
                UPDATE outbox_events SET locked_by = NULL, locked_until = NULL
                 WHERE status = 'PENDING' AND locked_until < now() RETURNING 1)
            SELECT count(*) FROM swept
            """;
    /** Retention: the oldest published rows through outbox_events_published_idx, a bounded batch at a time. */
    static final String DELETE_PUBLISHED = """
            WITH deleted AS (
                DELETE FROM outbox_events WHERE id = ANY (ARRAY(
                    SELECT id FROM outbox_events WHERE status = 'PUBLISHED' AND published_at < ?
                     ORDER BY published_at LIMIT ? FOR UPDATE SKIP LOCKED))
                RETURNING 1)
            SELECT count(*) FROM deleted
            """;
    /**
     * Backlog figures from the pending and dead indexes. The oldest pending event is the one first in write order (its
     * created_at is its transaction's start, so a long transaction may make a later one slightly older: ignored).
     */
    static final String STATS = """
            SELECT (SELECT count(*) FROM outbox_events WHERE status = 'PENDING'),
                   (SELECT count(*) FROM outbox_events WHERE status = 'DEAD'),
                   coalesce(extract(epoch FROM now() - (SELECT created_at FROM outbox_events WHERE status = 'PENDING'
                                                         ORDER BY seq LIMIT 1)), 0)
            """;
    static final String TENANT_STATS = """
            SELECT (SELECT count(*) FROM outbox_events WHERE status = 'PENDING' AND tenant_id = ?),
                   (SELECT count(*) FROM outbox_events WHERE status = 'DEAD' AND tenant_id = ?),
                   coalesce(extract(epoch FROM now() - (SELECT created_at FROM outbox_events WHERE status = 'PENDING'
                                                         AND tenant_id = ? ORDER BY seq LIMIT 1)), 0)
            """;
    static final String DEAD = """
            SELECT id, aggregate_id, event_type, attempts, last_error, created_at FROM outbox_events
             WHERE status = 'DEAD' AND tenant_id = ? ORDER BY tenant_id, seq LIMIT ?
            """;
    static final String REQUEUE = """
            UPDATE outbox_events SET status = 'PENDING', attempts = 0, available_at = now(), locked_by = NULL, locked_until = NULL
             WHERE id = ? AND tenant_id = ? AND status = 'DEAD'
            RETURNING seq
            """;
    /** Bulk requeue: the next batch of one tenant's matching dead events after {@code seq}, in write order. */
    static final String REQUEUE_BATCH = """
            UPDATE outbox_events o
               SET status = 'PENDING', attempts = 0, available_at = now(), locked_by = NULL, locked_until = NULL
             WHERE o.id = ANY (ARRAY(
                   SELECT d.id FROM outbox_events d
                    WHERE d.status = 'DEAD' AND d.tenant_id = ? AND d.seq > ?
                      AND (?::text IS NULL OR d.event_type = ?)
                      AND (?::timestamptz IS NULL OR d.created_at >= ?)
                      AND (?::timestamptz IS NULL OR d.created_at < ?)
                    ORDER BY d.tenant_id, d.seq
                    LIMIT ?
                      FOR UPDATE SKIP LOCKED))
            RETURNING o.seq
            """;

    static final String INSERT = """
            INSERT INTO outbox_events (id, tenant_id, aggregate_id, partition_key, event_type, payload, traceparent, created_at, available_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, now(), now())
            """;

    /** Per aggregate, the last sequence after adding {@code n}; a new counter starts after the sequences taken without one. */
    static final String NEXT_SEQUENCES = """
            INSERT INTO event_sequences AS s (aggregate_id, tenant_id, last_sequence)
            SELECT u.aggregate_id, ?, ? + u.n FROM unnest(?::uuid[], ?::bigint[]) AS u(aggregate_id, n) ORDER BY u.aggregate_id
            ON CONFLICT (aggregate_id) DO UPDATE SET last_sequence = s.last_sequence + excluded.last_sequence - ?
            RETURNING s.aggregate_id, s.last_sequence
            """;
}
