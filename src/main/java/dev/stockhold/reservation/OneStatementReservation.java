package dev.stockhold.reservation;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import dev.stockhold.CommitOutcomeUnknownException;
import dev.stockhold.Jdbc;
import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.RequestInProgressException;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Reservable;
import dev.stockhold.outbox.AutocommitEvents;

/**
 * A new reservation in one statement that commits on its own, with no transaction around it: the key with its stored
 * answer, the reservation and its lines, its created event and the conditional hold (I1), all or nothing. The
 * statement's last step, {@code stockhold_hold_check}, raises when the key was claimed but a record no longer had the
 * units above its safety stock or the hold crossed a record's 0 reservable or its low-stock threshold, and so rolls the
 * whole statement back; the caller then takes the transactional path, which retries a lost race and writes the
 * stock.depleted and stock.low events. The tenant's caps are applied before (ReservingService). One round trip for the write instead of a
 * transaction's seven.
 */
@ApplicationScoped
class OneStatementReservation {

    /** What the statement did. */
    enum Result {
        /** Committed: the key, the reservation, its event and the hold. */
        CREATED,
        /** The key was already stored: nothing was written, the request is a replay. */
        KEY_TAKEN,
        /** Nothing was written: a record no longer had the units or the hold would cross a threshold. */
        TRANSACTIONAL_PATH,
        /**
         * Nothing was written: a line without a location was placed by a guess ({@link LocationGuesses}) that is not its
         * sku's first record in allocation order; the request must be allocated from a fresh read.
         */
        MISPLACED
    }

    // The first set_config (local: this statement's implicit transaction) runs first, as every insert reads the row of
    // p: it bounds the wait for a key an in-flight original holds. Every insert reads the claimed key, so nothing is
    // written for a key already stored. The MATERIALIZED select reads the claimed key (so the key is settled first),
    // then sets the record wait, and locks the records in (sku, location) order before the hold touches any, as the
    // transactional path's hold does. Two waits because a duplicate must give up its sku's lane soon, while a
    // request that owns its key waits for a hot record as long as the transactional path would.
    // The guess check (misplaced) comes last so that the key insert stays within the 1,024 bytes of the statement
    // pg_stat_activity shows: operators and tests find a duplicate waiting on its key by that text.
    /** Package-private for the test that keeps bench/reservation.pgbench the same statement. */
    static final String SQL = """
            WITH p AS MATERIALIZED (
                SELECT set_config('lock_timeout', ?, true) AS lock_wait, ?::varchar AS tenant_id, ?::varchar AS idempotency_key,
                       ?::bytea AS fingerprint, ?::text AS body, ?::varchar AS location, ?::uuid AS id, ?::timestamptz AS created_at, ?::timestamptz AS expires_at,
                       ?::varchar AS reference, ?::text AS metadata, ?::uuid AS event_id, ?::varchar AS event_type,
                       ?::text AS partition_key, ?::text AS payload, ?::varchar AS traceparent, ?::varchar AS fulfilment,
                       ?::varchar AS leased_to, ?::bigint AS lease_ms),
            line AS (SELECT * FROM unnest(?::varchar[], ?::integer[], ?::varchar[], ?::boolean[]) WITH ORDINALITY AS l(sku, quantity, location, guessed, n)),
            wanted AS (SELECT sku, location, sum(quantity)::bigint AS quantity FROM line GROUP BY sku, location),
            claimed AS (
                INSERT INTO idempotency_records
                    (tenant_id, idempotency_key, fingerprint, status_code, response_body, location, reservation_id, created_at)
                SELECT tenant_id, idempotency_key, fingerprint, 201, body, location, id, now() FROM p
                ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
                RETURNING tenant_id),
            reservation AS (
                INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at, reference, metadata,
                                          fulfilment)
                SELECT p.id, p.tenant_id, 'HELD', p.idempotency_key, p.created_at, p.expires_at, p.created_at, p.reference, p.metadata,
                       p.fulfilment
                  FROM p, claimed
                RETURNING id),
            lines AS (
                INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location)
                SELECT r.id, l.n - 1, l.sku, l.quantity, l.location FROM reservation r, line l),
            event AS (
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, partition_key, event_type, payload, traceparent, created_at, available_at,
                                           locked_by, locked_until)
                SELECT p.event_id, p.tenant_id, p.id, p.partition_key, p.event_type, p.payload, p.traceparent, now(), now(),
                       p.leased_to, now() + p.lease_ms * interval '1 millisecond' FROM p, claimed
                RETURNING seq, created_at),
            locked AS MATERIALIZED (
                SELECT s.sku FROM stock_records s JOIN wanted w ON s.sku = w.sku AND s.location = w.location
                 WHERE s.tenant_id = (SELECT tenant_id FROM claimed WHERE set_config('lock_timeout', ?, true) IS NOT NULL)
                 ORDER BY s.sku, s.location FOR UPDATE OF s),
            hold AS (
                UPDATE stock_records s SET held = s.held + w.quantity, updated_at = now()
                  FROM wanted w, (SELECT count(*) FROM locked) AS all_locked
                 WHERE s.tenant_id = (SELECT tenant_id FROM claimed) AND s.sku = w.sku AND s.location = w.location
                   AND %1$s >= w.quantity
                RETURNING %2$s AS available, s.safety_stock, s.low_stock_threshold, w.quantity),
            misplaced AS (
                SELECT x.n FROM line x
                 WHERE x.guessed AND x.location IS DISTINCT FROM (
                       SELECT s.location FROM stock_records s LEFT JOIN locations l ON l.tenant_id = s.tenant_id AND l.location = s.location
                        WHERE s.tenant_id = (SELECT tenant_id FROM p) AND s.sku = x.sku
                        ORDER BY coalesce(l.priority, 100), s.location LIMIT 1))
            SELECT stockhold_hold_check((SELECT count(*) FROM claimed), (SELECT count(*) FROM hold), (SELECT count(*) FROM wanted),
                                        (SELECT count(*) FROM hold WHERE available = safety_stock
                                            OR available <= low_stock_threshold AND available + quantity > low_stock_threshold),
                                        (SELECT count(*) FROM misplaced)),
                   (SELECT seq FROM event), (SELECT created_at FROM event)
            """
            .formatted(Reservable.SQL, Reservable.AVAILABLE_SQL);

    /**
     * Sent before {@link #SQL} in the same round trip and implicit transaction (one Sync), so that only the statement
     * sees it: PostgreSQL's own choice ({@code auto}) plans the statement anew on every call, because a plan made for
     * the values looks cheaper, and planning it is about half of its cost. So the driver's prepared statement is planned
     * once per connection, without values, and that plan is kept as the tables grow: it must not depend on how large
     * they were when it was made. With sequential scans and hash and merge joins off, the only plan left reaches every
     * record, key and reservation by its index (the tenant taken from the claimed key); statistics from a small
     * stock_records once made it scan every record for each hold (ReservationPlanTest). The settings end with the
     * statement's transaction: the pooled connection keeps its defaults for everything else.
     */
    static final String GENERIC_PLAN = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true),"
            + " set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true),"
            + " set_config('enable_mergejoin', 'off', true)";
    /** What {@link #write} sends: the setting, then the statement. */
    static final String SENT = GENERIC_PLAN + ";\n" + SQL;

    private static final String HOLD_LOST = "SH001";
    private static final String HOLD_EMPTIES = "SH002";
    private static final String MISPLACED = "SH003";
    private static final String LOCK_TIMEOUT = "55P03";

    private final Jdbc jdbc;
    private final AutocommitEvents events;
    /** How long the transactional path waits for a record another transaction holds. */
    private final Duration recordWait;

    OneStatementReservation(Jdbc jdbc, AutocommitEvents events, StockholdConfig config) {
        this.jdbc = jdbc;
        this.events = events;
        this.recordWait = config.idempotency().inFlightWait();
    }

    /**
     * @param held the reservation as placed, {@code created} its answer (whose body is also the event's data)
     * @param keyWait how long to wait for a key an in-flight original holds (then 409 in progress); a record is waited
     *            for the in-flight wait, as on the transactional path (then a 503)
     * @param guessed whether the lines without a location were placed by {@link LocationGuesses} rather than by a read:
     *            each must then be on its sku's first record in allocation order, or nothing is written ({@link Result#MISPLACED})
     * @throws RequestInProgressException the key's original was still in flight after {@code keyWait}
     */
    Result write(ReservationAttempt a, ReservationView held, StoredResponse created, Duration keyWait, boolean guessed) {
        AutocommitEvents.LeasedRow event = events.opening(a.tenantId(), ReservationEvents.created(held), held.createdAt());
        Written written = jdbc.withConnection(Jdbc.Mode.AUTOCOMMIT, c -> writeOn(c, a, held, created, keyWait, guessed, event));
        if (written.result() == Result.CREATED) {
            events.afterCommit(event, written.seq(), written.createdAt());
        }
        return written.result();
    }

    /** What the statement did, and for a created reservation its event row's sequence and creation time. */
    record Written(Result result, long seq, Instant createdAt) {
    }

    /** The statement on one connection; package-private for the test that reads the connection's prepared plans. */
    Written writeOn(Connection c, ReservationAttempt a, ReservationView held, StoredResponse created, Duration keyWait,
            boolean guessed, AutocommitEvents.LeasedRow event) throws SQLException {
        List<ReservationView.Line> lines = held.rows();
        try (PreparedStatement ps = c.prepareStatement(SENT)) {
            int i = 0;
            ps.setString(++i, Long.toString(Math.max(1, keyWait.toMillis())));
            ps.setString(++i, a.tenantId());
            ps.setString(++i, a.key().value());
            ps.setBytes(++i, a.fingerprint().sha256());
            ps.setString(++i, created.body());
            ps.setString(++i, created.location());
            ps.setObject(++i, held.id(), Types.OTHER);
            ps.setTimestamp(++i, Timestamp.from(held.createdAt()));
            ps.setTimestamp(++i, Timestamp.from(held.expiresAt()));
            ps.setString(++i, held.reference());
            ps.setString(++i, held.metadataJson());
            ps.setObject(++i, event.id(), Types.OTHER);
            ps.setString(++i, event.type());
            ps.setString(++i, event.partitionKey());
            ps.setString(++i, event.payload());
            ps.setString(++i, event.traceparent());
            ps.setString(++i, held.fulfilment());
            ps.setString(++i, event.leasedTo());
            ps.setObject(++i, event.leaseMillis(), Types.BIGINT);
            ps.setArray(++i, array(c, "varchar", lines.stream().map(ReservationView.Line::sku).toArray()));
            ps.setArray(++i, array(c, "integer", lines.stream().map(ReservationView.Line::quantity).toArray()));
            ps.setArray(++i, array(c, "varchar", lines.stream().map(ReservationView.Line::location).toArray()));
            // a line the client gave no location, placed by a guess: the statement checks that it is where a read would place it
            ps.setArray(++i, array(c, "boolean", a.request().lines().stream().map(l -> guessed && l.location() == null).toArray()));
            ps.setString(++i, Long.toString(Math.max(1, recordWait.toMillis())));
            try {
                return written(ps);
            } catch (PSQLException e) {
                String state = e.getSQLState();
                if (HOLD_LOST.equals(state) || HOLD_EMPTIES.equals(state)) {
                    return new Written(Result.TRANSACTIONAL_PATH, 0, null);
                }
                if (MISPLACED.equals(state)) {
                    return new Written(Result.MISPLACED, 0, null);
                }
                if (LOCK_TIMEOUT.equals(state) && waitedForTheKey(e.getServerErrorMessage())) {
                    throw new RequestInProgressException();
                }
                if (CommitOutcomeUnknownException.commitMayHaveLanded(state)) {
                    // the statement is its own commit: the connection may have gone after PostgreSQL committed it
                    throw new CommitOutcomeUnknownException(e);
                }
                // otherwise (a record stayed locked for the whole record wait, too) a database failure: a 503, as on
                // the transactional path
                throw e;
            }
        }
    }

    /** The statement's answer (the second result, after the setting's): whether the key was claimed, and the event row's. */
    private static Written written(PreparedStatement ps) throws SQLException {
        ps.execute();
        ps.getMoreResults();
        try (ResultSet rs = ps.getResultSet()) {
            if (!rs.next() || !rs.getBoolean(1)) {
                return new Written(Result.KEY_TAKEN, 0, null);
            }
            return new Written(Result.CREATED, rs.getLong(2), rs.getTimestamp(3).toInstant());
        }
    }

    /** A lock timeout while waiting on the key's row, not on a stock record's: PostgreSQL names the relation. */
    private static boolean waitedForTheKey(ServerErrorMessage message) {
        return message != null && message.getWhere() != null && message.getWhere().contains("\"idempotency_records\"");
    }

    private static Array array(Connection c, String type, Object[] values) throws SQLException {
        return c.createArrayOf(type, values);
    }
}
