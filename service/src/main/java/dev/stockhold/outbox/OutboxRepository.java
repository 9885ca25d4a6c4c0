package dev.stockhold.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.agroal.api.AgroalDataSource;

/**
 * Every statement on {@code outbox_events}. {@link #insert} runs in the transaction of the change the events describe
 * ({@link OutboxWriter} is its only caller). The statements of the relay and the outbox jobs are each their own short
 * transaction (no row lock is held while the broker is called), sent in one round trip, and each runs under {@link #PLAN}: the outbox is a
 * queue table whose statistics are stale most of the time (empty when analyzed, 40,000 pending an hour later), so no
 * statement here may depend on them. Every statement is written so that, with sequential scans, bitmaps, sorts, hash
 * and merge joins off, the only plan left reads a partial index in order and stops after what it needs: O(batch) or
 * O(backlog), never O(retained history). {@code OutboxPlanTest} checks each one on a copy with hostile statistics.
 */
@ApplicationScoped
public class OutboxRepository {

    /** The planner settings every outbox statement runs with, for its own transaction only. */
    static final String PLAN = "SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off; "
            + "SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off";

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

    private static final String INSERT = """
            INSERT INTO outbox_events (id, tenant_id, aggregate_id, partition_key, event_type, payload, traceparent, created_at, available_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, now(), now())
            """;

    private final AgroalDataSource dataSource;

    OutboxRepository(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A new row: the event as it will be published, byte for byte. */
    record NewEvent(UUID id, String tenantId, UUID aggregateId, String partitionKey, String type, String payload, String traceparent) {
    }

    /** Inserts the rows in one round trip, in the caller's transaction. */
    void insert(List<NewEvent> events) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(INSERT)) {
            for (NewEvent event : events) {
                ps.setObject(1, event.id(), Types.OTHER);
                ps.setString(2, event.tenantId());
                ps.setObject(3, event.aggregateId(), Types.OTHER);
                ps.setString(4, event.partitionKey());
                ps.setString(5, event.type());
                ps.setString(6, event.payload());
                ps.setString(7, event.traceparent());
                ps.addBatch();
            }
            ps.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Leases up to {@code limit} claimable events to {@code relayId}, in write order. */
    public List<OutboxEvent> claim(String relayId, int limit, Duration lease) {
        return run(CLAIM, ps -> {
            ps.setString(1, relayId);
            ps.setLong(2, lease.toMillis());
            ps.setInt(3, limit);
        }, rs -> {
            List<OutboxEvent> events = new ArrayList<>();
            while (rs.next()) {
                events.add(new OutboxEvent(rs.getObject(1, UUID.class), rs.getLong(2), rs.getString(3),
                        rs.getObject(4, UUID.class), rs.getString(5), rs.getString(6), rs.getInt(7),
                        rs.getTimestamp(8).toInstant(), rs.getString(9), rs.getString(10)));
            }
            events.sort(java.util.Comparator.comparingLong(OutboxEvent::seq));
            return events;
        });
    }

    /** How one claimed event went: {@code failure} null means the broker confirmed it. */
    public record Mark(UUID id, PublishFailure failure, Instant retryAt) {
        public static Mark confirmed(UUID id) {
            return new Mark(id, null, null);
        }
    }

    /** What {@link #mark} did to one row: PUBLISHED, PENDING (to be retried) or DEAD. */
    public record Marked(UUID id, String status, int attempts) {
    }

    /** Records a batch's outcome for the rows this relay still leases. @return the rows changed, with their new status */
    public List<Marked> mark(String relayId, List<Mark> marks, int maxAttempts) {
        List<UUID> confirmed = marks.stream().filter(m -> m.failure() == null).map(Mark::id).toList();
        List<Mark> failed = marks.stream().filter(m -> m.failure() != null).toList();
        List<String> statements = new ArrayList<>();
        if (!confirmed.isEmpty()) {
            statements.add(MARK_PUBLISHED);
        }
        if (!failed.isEmpty()) {
            statements.add(MARK_FAILED);
        }
        if (statements.isEmpty()) {
            return List.of();
        }
        List<Marked> marked = new ArrayList<>();
        run(String.join("; ", statements), ps -> {
            Connection c = ps.getConnection();
            int i = 1;
            if (!confirmed.isEmpty()) {
                ps.setArray(i++, c.createArrayOf("uuid", confirmed.toArray()));
                ps.setString(i++, relayId);
            }
            if (!failed.isEmpty()) {
                Object[] ids = failed.stream().map(Mark::id).toArray();
                ps.setInt(i++, maxAttempts);
                ps.setArray(i++, c.createArrayOf("uuid", ids));
                ps.setArray(i++, c.createArrayOf("text", failed.stream().map(m -> m.failure().reason()).toArray()));
                ps.setArray(i++, c.createArrayOf("text", failed.stream().map(m -> truncate(m.failure().message())).toArray()));
                ps.setArray(i++, c.createArrayOf("boolean", failed.stream().map(m -> m.failure().permanent()).toArray()));
                ps.setArray(i++, c.createArrayOf("timestamptz", failed.stream().map(m -> Timestamp.from(m.retryAt())).toArray()));
                ps.setArray(i++, c.createArrayOf("uuid", ids));
                ps.setString(i, relayId);
            }
        }, rs -> {
            while (rs.next()) {
                marked.add(new Marked(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3)));
            }
            return marked;
        });
        return marked;
    }

    /** Hands leases back without charging an attempt. @return rows released */
    public int release(String relayId, List<UUID> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return count(RELEASE, ps -> {
            ps.setArray(1, ps.getConnection().createArrayOf("uuid", ids.toArray()));
            ps.setString(2, relayId);
        });
    }

    /** On shutdown: hand every lease of this relay back at once instead of letting them expire. */
    public int releaseLeases(String relayId) {
        return count(RELEASE_ALL, ps -> ps.setString(1, relayId));
    }

    /** Returns rows whose lease expired (their relay died) to plain pending. */
    public int sweepExpiredLeases() {
        return count(SWEEP, ps -> {
        });
    }

    /** Deletes up to {@code limit} rows published before {@code cutoff}, oldest first. */
    public int deletePublishedBefore(Instant cutoff, int limit) {
        return count(DELETE_PUBLISHED, ps -> {
            ps.setTimestamp(1, Timestamp.from(cutoff));
            ps.setInt(2, limit);
        });
    }

    /** Pending count, dead count and age of the oldest pending event; all tenants, or one. */
    public OutboxStats stats(String tenantIdOrNull) {
        Binder binder = tenantIdOrNull == null ? ps -> {
        } : ps -> {
            ps.setString(1, tenantIdOrNull);
            ps.setString(2, tenantIdOrNull);
            ps.setString(3, tenantIdOrNull);
        };
        return run(tenantIdOrNull == null ? STATS : TENANT_STATS, binder, rs -> {
            rs.next();
            return new OutboxStats(rs.getLong(1), rs.getLong(2), rs.getDouble(3));
        });
    }

    /** Dead events of one tenant, oldest first. */
    public List<DeadEvent> dead(String tenantId, int limit) {
        return run(DEAD, ps -> {
            ps.setString(1, tenantId);
            ps.setInt(2, limit);
        }, rs -> {
            List<DeadEvent> dead = new ArrayList<>();
            while (rs.next()) {
                dead.add(new DeadEvent(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                        rs.getInt(4), rs.getString(5), rs.getTimestamp(6).toInstant()));
            }
            return dead;
        });
    }

    /** DEAD -> PENDING with a fresh attempt budget. @return false if the tenant has no dead event with this id */
    public boolean requeue(String tenantId, UUID id) {
        return run(REQUEUE, ps -> {
            ps.setObject(1, id, Types.OTHER);
            ps.setString(2, tenantId);
        }, ResultSet::next);
    }

    /** Which dead events a bulk requeue takes; null fields do not filter. {@code until} is exclusive. */
    public record DeadFilter(String type, Instant since, Instant until) {
        public static final DeadFilter ALL = new DeadFilter(null, null, null);
    }

    /** One bulk-requeue batch: how many events, and the seq to continue after. */
    public record RequeuedBatch(int count, long lastSeq) {
    }

    /** Requeues the next {@code limit} matching dead events of the tenant after {@code afterSeq}, in one short transaction. */
    public RequeuedBatch requeueBatch(String tenantId, DeadFilter filter, long afterSeq, int limit) {
        Timestamp since = filter.since() == null ? null : Timestamp.from(filter.since());
        Timestamp until = filter.until() == null ? null : Timestamp.from(filter.until());
        return run(REQUEUE_BATCH, ps -> {
            ps.setString(1, tenantId);
            ps.setLong(2, afterSeq);
            ps.setString(3, filter.type());
            ps.setString(4, filter.type());
            ps.setTimestamp(5, since);
            ps.setTimestamp(6, since);
            ps.setTimestamp(7, until);
            ps.setTimestamp(8, until);
            ps.setInt(9, limit);
        }, rs -> {
            long last = afterSeq;
            int count = 0;
            while (rs.next()) {
                last = Math.max(last, rs.getLong(1));
                count++;
            }
            return new RequeuedBatch(count, last);
        });
    }

    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    @FunctionalInterface
    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private int count(String sql, Binder binder) {
        return run(sql, binder, rs -> {
            rs.next();
            return rs.getInt(1);
        });
    }

    /**
     * {@code BEGIN; PLAN; sql; COMMIT} in one round trip ({@code sql} may be several statements: the reader sees each
     * result set, and the last one's value is returned): a real transaction block, so the SET LOCALs hold for the
     * statement and end with it. On an error the block is rolled back before the connection goes back to the pool.
     */
    private <T> T run(String sql, Binder binder, Reader<T> reader) {
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("BEGIN; " + PLAN + "; " + sql + "; COMMIT")) {
                binder.bind(ps);
                boolean isResultSet = ps.execute();
                T result = null;
                while (isResultSet || ps.getUpdateCount() != -1) {
                    if (isResultSet) {
                        try (ResultSet rs = ps.getResultSet()) {
                            result = reader.read(rs);
                        }
                    }
                    isResultSet = ps.getMoreResults();
                }
                return result;
            } catch (SQLException e) {
                try (Statement rollback = c.createStatement()) {
                    rollback.execute("ROLLBACK");
                } catch (SQLException ignored) {
                    // the connection is gone; the pool discards it
                }
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 2000 ? error : error.substring(0, 2000);
    }

    /** Outbox backlog figures. */
    public record OutboxStats(long pending, long dead, double oldestPendingAgeSeconds) {
    }

    /** A dead event as the admin endpoint shows it. */
    public record DeadEvent(@Schema(required = true) UUID id, @Schema(required = true) UUID aggregateId,
            @Schema(required = true) String type, @Schema(required = true) int attempts, String lastError,
            @Schema(required = true) Instant createdAt) {
    }
}
