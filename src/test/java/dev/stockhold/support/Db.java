package dev.stockhold.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

/** Reads the database directly: tests assert the invariant in the rows, not only the status code. */
public final class Db {

    private final DataSource dataSource;

    public Db(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The sku's available, summed over its locations (v1's available). */
    /**
     * Another transaction that holds the stock row of (tenant, sku, default) FOR UPDATE until it is closed (it then
     * rolls back): a bulk import or a forgotten session, as the service sees it.
     */
    public AutoCloseable holdStockRow(String tenant, String sku) throws SQLException {
        return holdStockRow(dataSource.getConnection(), tenant, sku);
    }

    /** The same on a connection of the caller's (one outside the service's pool), which it closes at the end. */
    public static AutoCloseable holdStockRow(Connection holder, String tenant, String sku) throws SQLException {
        holder.setAutoCommit(false);
        try (PreparedStatement lock = holder.prepareStatement(
                "SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'default' FOR UPDATE")) {
            lock.setString(1, tenant);
            lock.setString(2, sku);
            lock.executeQuery().close();
        }
        return () -> {
            holder.rollback();
            holder.close();
        };
    }

    public long available(String tenant, String sku) {
        return queryLong("SELECT coalesce(sum(on_hand - held), 0) FROM stock_records WHERE tenant_id = ? AND sku = ?", tenant, sku);
    }

    public long reservationsWithKey(String tenant, String key) {
        return queryLong("SELECT count(*) FROM reservations WHERE tenant_id = ? AND idempotency_key = ?", tenant, key);
    }

    public long reservationsOfTenant(String tenant) {
        return queryLong("SELECT count(*) FROM reservations WHERE tenant_id = ?", tenant);
    }

    public long idempotencyRecords(String tenant, String key) {
        return queryLong("SELECT count(*) FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?", tenant, key);
    }

    public long idempotencyRecordsOfTenant(String tenant) {
        return queryLong("SELECT count(*) FROM idempotency_records WHERE tenant_id = ?", tenant);
    }

    /** The tenant's reservation events (stock events, which every admin write adds, not counted). */
    public long outboxEventsOfTenant(String tenant) {
        return queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND event_type LIKE 'dev.stockhold.reservation.%'",
                tenant);
    }

    /** Event types of one reservation in the order they were written. */
    /**
     * The relay's times are decided by the database's {@code now()}, so a test moves them instead of waiting: every
     * lease the tenant's outbox rows carry runs out, as if its length had passed.
     */
    public void expireOutboxLeases(String tenant) {
        execute("UPDATE outbox_events SET locked_until = now() - interval '1 millisecond' WHERE tenant_id = ? AND locked_until IS NOT NULL",
                tenant);
    }

    /** Every pending outbox row of the tenant becomes due now, as if its retry backoff had passed. */
    public void makeOutboxRetriesDue(String tenant) {
        execute("UPDATE outbox_events SET available_at = now() WHERE tenant_id = ? AND status = 'PENDING' AND available_at > now()",
                tenant);
    }

    /**
     * Waits until at least {@code count} sessions of this database wait for a lock in a statement containing
     * {@code statement}. pg_stat_activity keeps a statement's first 1,024 bytes (track_activity_query_size): match its
     * start.
     */
    public void awaitLockWaiters(int count, String statement) {
        Eventually.await(Duration.ofSeconds(10), count + " sessions waiting for a lock in " + statement, () -> queryLong("""
                SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE ?""", "%" + statement + "%") >= count);
    }

    /**
     * A reservation of this tenant parked on the sku's row lock, holding every place it took while the caller looks:
     * {@link Parked#close()} lets it through, and {@link Parked#status()} is its answer's status.
     */
    public Parked parkReservation(Api api, String sku) throws SQLException {
        AutoCloseable held = holdStockRow(api.tenant(), sku);
        java.util.concurrent.CompletableFuture<Integer> status = java.util.concurrent.CompletableFuture
                .supplyAsync(() -> api.reserve(Api.key(), sku, 1).statusCode());
        // any lock wait in this database: pg_stat_activity keeps only the first 1 kB of the query text, before the
        // reservation statement names stock_records
        Eventually.await(Duration.ofSeconds(5), "the parked request waits on the row lock", () -> queryLong(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()") >= 1);
        return new Parked(held, status);
    }

    /** A parked reservation: closing it releases the row lock it waits on. */
    public record Parked(AutoCloseable held, java.util.concurrent.CompletableFuture<Integer> status) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            held.close();
        }
    }

    public List<String> eventTypes(String reservationId) {
        return queryStrings("SELECT event_type FROM outbox_events WHERE aggregate_id = ?::uuid ORDER BY seq", reservationId);
    }

    public String status(String reservationId) {
        List<String> status = queryStrings("SELECT status FROM reservations WHERE id = ?::uuid", reservationId);
        return status.isEmpty() ? null : status.get(0);
    }

    /** Quantity of a sku held by HELD or CONFIRMED reservations: the other half of conservation (I2). */
    public long heldOrConfirmed(String tenant, String sku) {
        return queryLong("""
                SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l
                  JOIN reservations r ON r.id = l.reservation_id
                 WHERE r.tenant_id = ? AND l.sku = ? AND r.status IN ('HELD', 'CONFIRMED')
                """, tenant, sku);
    }

    /** Reservations whose outbox rows do not match their history: one 'created' plus one per transition (I4). */
    /** Reservations without exactly one created event and, once no longer HELD, one terminal event (extends aside). */
    public long reservationsWithWrongEventCount(String tenant) {
        return queryLong("""
                SELECT count(*) FROM reservations r
                 WHERE r.tenant_id = ?
                   AND (SELECT count(*) FROM outbox_events o WHERE o.aggregate_id = r.id
                           AND o.event_type <> 'dev.stockhold.reservation.extended.v1')
                       <> CASE WHEN r.status = 'HELD' THEN 1 ELSE 2 END
                """, tenant);
    }

    public void execute(String sql, Object... args) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql, args)) {
            ps.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public long queryLong(String sql, Object... args) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = prepare(c, sql, args);
                ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new IllegalStateException("no row for " + sql);
            }
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public List<String> queryStrings(String sql, Object... args) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = prepare(c, sql, args);
                ResultSet rs = ps.executeQuery()) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            ps.setObject(i + 1, arg instanceof UUID ? arg.toString() : arg);
        }
        return ps;
    }
}
