package dev.stockhold.outbox;

import java.sql.ResultSet;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Events the relay gave up on (DEAD), for operators: list them, requeue one, or requeue a filtered set in batches. The
 * failed-publications role of the outbox; each call is a short transaction of its own.
 */
@ApplicationScoped
public class DeadEvents {

    @Inject
    OutboxJdbc jdbc;

    /** Dead events of one tenant, oldest first. */
    public List<DeadEvent> dead(String tenantId, int limit) {
        return jdbc.inOwnTransaction(OutboxDialect.DEAD, ps -> {
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

    /** OutboxDialect.DEAD -> PENDING with a fresh attempt budget. @return false if the tenant has no dead event with this id */
    public boolean requeue(String tenantId, UUID id) {
        return jdbc.inOwnTransaction(OutboxDialect.REQUEUE, ps -> {
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
        return jdbc.inOwnTransaction(OutboxDialect.REQUEUE_BATCH, ps -> {
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

    /** A dead event as the admin endpoint shows it. */
    public record DeadEvent(@Schema(required = true) UUID id, @Schema(required = true) UUID aggregateId,
            @Schema(required = true) String type, @Schema(required = true) int attempts, String lastError,
            @Schema(required = true) Instant createdAt) {
    }
}
