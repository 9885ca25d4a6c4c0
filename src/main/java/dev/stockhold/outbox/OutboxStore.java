package dev.stockhold.outbox;

import java.sql.Array;
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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.agroal.api.AgroalDataSource;

/** The relay's SQL. Each method is its own short transaction: no row lock is held while the broker is called. */
@ApplicationScoped
@Transactional(Transactional.TxType.REQUIRES_NEW)
public class OutboxStore {

    /*
     * The claim (I6 ordering): a PENDING row whose time has come and whose lease is free or expired, and only if no
     * earlier event of the same reservation is still unpublished (pending, leased, retrying or dead). Replicas skip
     * rows another claim holds (SKIP LOCKED) and lease what they take, so each row has one publisher at a time.
     */
    static final String CLAIM = """
            UPDATE outbox_events o
               SET locked_by = ?, locked_until = now() + ? * interval '1 millisecond'
             WHERE o.id IN (
                   SELECT c.id FROM outbox_events c
                    WHERE c.status = 'PENDING' AND c.available_at <= now()
                      AND (c.locked_until IS NULL OR c.locked_until < now())
                      AND NOT EXISTS (SELECT 1 FROM outbox_events e
                                       WHERE e.aggregate_id = c.aggregate_id AND e.seq < c.seq AND e.status <> 'PUBLISHED')
                    ORDER BY c.seq
                    LIMIT ?
                      FOR UPDATE SKIP LOCKED)
            RETURNING o.id, o.seq, o.tenant_id, o.aggregate_id, o.event_type, o.payload, o.attempts, o.created_at, o.traceparent
            """;
    /*
     * The claim must walk outbox_events_pending_seq_idx in seq order and stop after its batch. With statistics that say
     * pending rows are rare (a queue table's statistics are stale most of the time) the planner would rather read every
     * pending row through a bitmap and sort them, which under a backlog costs more per claim than the relay can afford
     * (V4). These two settings, for the claim's own transaction only, leave it no plan but the ordered index scan.
     */
    static final String CLAIM_PLAN = "SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off";
    private static final String MARK_PUBLISHED = """
            UPDATE outbox_events SET status = 'PUBLISHED', published_at = now(), locked_by = NULL, locked_until = NULL
             WHERE id = ANY (?) AND locked_by = ? AND status = 'PENDING'
            """;
    private static final String MARK_FAILED = """
            UPDATE outbox_events
               SET attempts = attempts + 1, last_error = ?, available_at = ?, locked_by = NULL, locked_until = NULL,
                   status = CASE WHEN ? OR attempts + 1 >= ? THEN 'DEAD' ELSE 'PENDING' END
             WHERE id = ? AND locked_by = ? AND status = 'PENDING'
            """;

    private final AgroalDataSource dataSource;

    OutboxStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Leases up to {@code limit} claimable events to {@code relayId}, in write order. */
    public List<OutboxEvent> claim(String relayId, int limit, Duration lease) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(CLAIM)) {
            try (Statement plan = c.createStatement()) {
                plan.execute(CLAIM_PLAN);
            }
            ps.setString(1, relayId);
            ps.setLong(2, lease.toMillis());
            ps.setInt(3, limit);
            List<OutboxEvent> events = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(new OutboxEvent(rs.getObject(1, UUID.class), rs.getLong(2), rs.getString(3),
                            rs.getObject(4, UUID.class), rs.getString(5), rs.getString(6), rs.getInt(7),
                            rs.getTimestamp(8).toInstant(), rs.getString(9)));
                }
            }
            events.sort(Comparator.comparingLong(OutboxEvent::seq));
            return events;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Marks confirmed events published, if this relay still holds their lease. @return rows marked */
    public int markPublished(String relayId, List<UUID> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(MARK_PUBLISHED)) {
            Array array = c.createArrayOf("uuid", ids.toArray());
            ps.setArray(1, array);
            ps.setString(2, relayId);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Returns failed events to pending with their next attempt time, or to DEAD. */
    public void markFailed(String relayId, Map<OutboxEvent, Instant> retryAt, Map<UUID, PublishFailure> failures,
            int maxAttempts) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(MARK_FAILED)) {
            for (Map.Entry<OutboxEvent, Instant> entry : retryAt.entrySet()) {
                PublishFailure failure = failures.get(entry.getKey().id());
                ps.setString(1, truncate(failure.describe()));
                ps.setTimestamp(2, Timestamp.from(entry.getValue()));
                ps.setBoolean(3, failure.permanent());
                ps.setInt(4, maxAttempts);
                ps.setObject(5, entry.getKey().id(), Types.OTHER);
                ps.setString(6, relayId);
                ps.addBatch();
            }
            ps.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** On shutdown: hand this relay's leases back at once instead of letting them expire. */
    public int releaseLeases(String relayId) {
        return update("UPDATE outbox_events SET locked_by = NULL, locked_until = NULL WHERE locked_by = ? AND status = 'PENDING'",
                relayId);
    }

    /** Returns rows whose lease expired (their relay died) to plain pending. */
    public int sweepExpiredLeases() {
        return update("UPDATE outbox_events SET locked_by = NULL, locked_until = NULL WHERE status = 'PENDING' AND locked_until < now()");
    }

    /** Deletes up to {@code limit} rows published before {@code cutoff}. */
    public int deletePublishedBefore(Instant cutoff, int limit) {
        return update("""
                DELETE FROM outbox_events WHERE id IN (
                    SELECT id FROM outbox_events WHERE status = 'PUBLISHED' AND published_at < ? LIMIT ? FOR UPDATE SKIP LOCKED)
                """, Timestamp.from(cutoff), limit);
    }

    /** Pending count, dead count and age of the oldest pending event; all tenants, or one. */
    public OutboxStats stats(String tenantIdOrNull) {
        String sql = """
                SELECT count(*) FILTER (WHERE status = 'PENDING'),
                       count(*) FILTER (WHERE status = 'DEAD'),
                       coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'PENDING')), 0)
                  FROM outbox_events
                 WHERE status <> 'PUBLISHED' AND (?::text IS NULL OR tenant_id = ?)
                """;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, tenantIdOrNull);
            ps.setString(2, tenantIdOrNull);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new OutboxStats(rs.getLong(1), rs.getLong(2), rs.getDouble(3));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Dead events of one tenant, oldest first. */
    public List<DeadEvent> dead(String tenantId, int limit) {
        String sql = """
                SELECT id, aggregate_id, event_type, attempts, last_error, created_at FROM outbox_events
                 WHERE status = 'DEAD' AND tenant_id = ? ORDER BY seq LIMIT ?
                """;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, tenantId);
            ps.setInt(2, limit);
            List<DeadEvent> dead = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    dead.add(new DeadEvent(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3),
                            rs.getInt(4), rs.getString(5), rs.getTimestamp(6).toInstant()));
                }
            }
            return dead;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** DEAD -> PENDING with a fresh attempt budget. @return false if the tenant has no dead event with this id */
    public boolean requeue(String tenantId, UUID id) {
        return update("""
                UPDATE outbox_events SET status = 'PENDING', attempts = 0, available_at = now(), locked_by = NULL, locked_until = NULL
                 WHERE id = ? AND tenant_id = ? AND status = 'DEAD'
                """, id, tenantId) == 1;
    }

    private int update(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String truncate(String error) {
        return error.length() <= 2000 ? error : error.substring(0, 2000);
    }

    /** Outbox backlog figures. */
    public record OutboxStats(long pending, long dead, double oldestPendingAgeSeconds) {
    }

    /** A dead event as the admin endpoint shows it. */
    public record DeadEvent(UUID id, UUID aggregateId, String type, int attempts, String lastError, Instant createdAt) {
    }
}
