package dev.stockhold.outbox;

import java.sql.Connection;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The relay's side of the outbox (the persistor of the outbox pattern): claim a batch under a lease, mark what the
 * broker confirmed or refused, hand leases back, sweep the leases of dead relays, and delete published rows past
 * retention. Each call is a short transaction of its own ({@link OutboxJdbc#inOwnTransaction}); none may run inside a
 * caller's.
 */
@ApplicationScoped
public class RelayStore {

    @Inject
    OutboxJdbc jdbc;

    /** Leases up to {@code limit} claimable events to {@code relayId}, in write order. */
    public List<ClaimedRow> claim(String relayId, int limit, Duration lease) {
        return jdbc.inOwnTransaction(OutboxDialect.ONE_PLAN + "; " + OutboxDialect.CLAIM, ps -> {
            ps.setString(1, relayId);
            ps.setLong(2, lease.toMillis());
            ps.setInt(3, limit);
        }, rs -> {
            List<ClaimedRow> events = new ArrayList<>();
            while (rs.next()) {
                events.add(new ClaimedRow(rs.getObject(1, UUID.class), rs.getLong(2), rs.getString(3),
                        rs.getObject(4, UUID.class), rs.getString(5), rs.getString(6), rs.getInt(7),
                        rs.getTimestamp(8).toInstant(), rs.getString(9), rs.getString(10)));
            }
            events.sort(java.util.Comparator.comparingLong(ClaimedRow::seq));
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
        if (marks.isEmpty()) {
            return List.of();
        }
        List<UUID> confirmed = marks.stream().filter(m -> m.failure() == null).map(Mark::id).toList();
        List<Mark> failed = marks.stream().filter(m -> m.failure() != null).toList();
        List<String> statements = new ArrayList<>(List.of(OutboxDialect.ONE_PLAN));
        if (!confirmed.isEmpty()) {
            statements.add(OutboxDialect.MARK_PUBLISHED);
        }
        if (!failed.isEmpty()) {
            statements.add(OutboxDialect.MARK_FAILED);
        }
        List<Marked> marked = new ArrayList<>();
        jdbc.inOwnTransaction(String.join("; ", statements), ps -> {
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
        return count(OutboxDialect.RELEASE, ps -> {
            ps.setArray(1, ps.getConnection().createArrayOf("uuid", ids.toArray()));
            ps.setString(2, relayId);
        });
    }

    /** On shutdown: hand every lease of this relay back at once instead of letting them expire. */
    public int releaseLeases(String relayId) {
        return count(OutboxDialect.RELEASE_ALL, ps -> ps.setString(1, relayId));
    }

    /** Returns rows whose lease expired (their relay died) to plain pending. */
    public int sweepExpiredLeases() {
        return count(OutboxDialect.SWEEP, ps -> {
        });
    }

    /** Deletes up to {@code limit} rows published before {@code cutoff}, oldest first. */
    public int deletePublishedBefore(Instant cutoff, int limit) {
        return count(OutboxDialect.DELETE_PUBLISHED, ps -> {
            ps.setTimestamp(1, Timestamp.from(cutoff));
            ps.setInt(2, limit);
        });
    }

    private int count(String sql, OutboxJdbc.Binder binder) {
        return jdbc.inOwnTransaction(sql, binder, rs -> {
            rs.next();
            return rs.getInt(1);
        });
    }

    private static String truncate(String error) {
        return error == null || error.length() <= 2000 ? error : error.substring(0, 2000);
    }
}
