package dev.stockhold.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.stockhold.support.BrokerQueue;

/**
 * What a run left, read once it has settled: the relay drained, a consistent snapshot of the tenant's tables, and
 * what the consumer received of it. The checker judges these; nothing here judges.
 */
final class Aftermath {

    /** The drain settles the short-lived reservations; the snapshot does not need more (it is consistent anyway). */
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(1);

    private Aftermath() {
    }

    /** What the consumer received: RabbitMQ's queue or Kafka's topics, read the same way by the checker. */
    interface EventFeed extends AutoCloseable {
        List<BrokerQueue.Delivery> allOf(String tenant);

        @Override
        void close();
    }

    static EventFeed rabbit(BrokerQueue queue) {
        return new EventFeed() {
            @Override
            public List<BrokerQueue.Delivery> allOf(String tenant) {
                return queue.allOf(tenant);
            }

            @Override
            public void close() {
                queue.close();
            }
        };
    }

    /**
     * Waits until the short-lived reservations have expired (so no event is written after the snapshot), nothing is
     * pending in the outbox and the consumer has received every published event.
     */
    static void drain(Connection db, String tenant, EventFeed events) throws SQLException, InterruptedException {
        Instant deadline = Instant.now().plus(DRAIN_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            long expiring = count(db, "SELECT count(*) FROM reservations WHERE tenant_id = ? AND status = 'HELD'"
                    + " AND expires_at < now() + interval '60 seconds'", tenant);
            long pending = count(db, "SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PENDING'", tenant);
            if (expiring == 0 && pending == 0) {
                Set<String> published = new HashSet<>();
                try (PreparedStatement ps = db.prepareStatement(
                        "SELECT id::text FROM outbox_events WHERE tenant_id = ? AND status = 'PUBLISHED'")) {
                    ps.setString(1, tenant);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            published.add(rs.getString(1));
                        }
                    }
                }
                events.allOf(tenant).forEach(d -> published.remove(d.eventId()));
                if (published.isEmpty()) {
                    return;
                }
            }
            Thread.sleep(500);
        }
    }

    /**
     * The whole state in one REPEATABLE READ transaction: the replicas keep running (a reservation held for 10 minutes
     * may expire while the checker reads), so tables read one after the other could mix two moments.
     */
    static Snapshot consistentSnapshot(Connection db, String tenant) throws SQLException {
        db.setAutoCommit(false);
        db.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        db.setReadOnly(true);
        try {
            return Snapshot.read(db, tenant);
        } finally {
            db.commit();
            db.setReadOnly(false);
            db.setAutoCommit(true);
        }
    }

    /**
     * What the consumer received, once it has received every event of the snapshot (or a minute has passed: the rest is
     * then missing), without the events written after the snapshot: those belong to a later state. A delivery whose
     * event was never written at all stays in, and the checker reports it.
     */
    static List<BrokerQueue.Delivery> receivedOf(Snapshot snapshot, Connection db, String tenant,
            EventFeed events) throws SQLException, InterruptedException {
        Set<String> written = snapshot.events().stream().map(Snapshot.Event::id).collect(Collectors.toSet());
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (Instant.now().isBefore(deadline)) {
            Set<String> waiting = new HashSet<>(written);
            events.allOf(tenant).forEach(d -> waiting.remove(d.eventId()));
            if (waiting.isEmpty()) {
                break;
            }
            Thread.sleep(500);
        }
        Set<String> later = new HashSet<>();
        try (PreparedStatement ps = db.prepareStatement("SELECT id::text FROM outbox_events WHERE tenant_id = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!written.contains(rs.getString(1))) {
                        later.add(rs.getString(1));
                    }
                }
            }
        }
        return events.allOf(tenant).stream().filter(d -> !later.contains(d.eventId())).toList();
    }

    private static long count(Connection db, String sql, String tenant) throws SQLException {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
