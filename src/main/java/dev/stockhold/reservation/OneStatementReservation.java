package dev.stockhold.reservation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import dev.stockhold.outbox.AutocommitEvents;

/**
 * A new reservation in one statement that commits on its own, with no transaction around it ({@link NewReservations#ALONE}):
 * the key with its stored answer, the reservation and its lines, its created event and the conditional hold (I1), all
 * or nothing. This class sends it and reads its outcome. The statement's last step, {@code stockhold_hold_check}, raises
 * when the key was claimed but a record no longer had the units above its safety stock or the hold crossed a record's 0
 * reservable or its low-stock threshold, and so rolls the whole statement back; the caller then takes the transactional
 * path, which retries a lost race and writes the stock.depleted and stock.low events. The tenant's caps are applied
 * before (ReservingService). One round trip for the write instead of a transaction's five.
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

    /**
     * Sent before the statement in the same round trip and implicit transaction (one Sync), so that only the statement
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
    static final String SENT = GENERIC_PLAN + ";\n" + NewReservations.ALONE;

    private static final String HOLD_LOST = "SH001";
    private static final String HOLD_EMPTIES = "SH002";
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

    /**
     * The same statement in the caller's transaction, its lines placed by a read, its event handed to no relay: for
     * {@link ReservationWarmUp}, which rolls it back.
     */
    Result writeInCallersTransaction(ReservationAttempt a, ReservationView held, StoredResponse created, Duration keyWait) {
        AutocommitEvents.LeasedRow event = events.opening(a.tenantId(), ReservationEvents.created(held), held.createdAt());
        return jdbc.withConnection(Jdbc.Mode.JOIN, c -> writeOn(c, a, held, created, keyWait, false, event)).result();
    }

    /** What the statement did, and for a created reservation its event row's sequence and creation time. */
    record Written(Result result, long seq, Instant createdAt) {
    }

    /** The statement on one connection; package-private for the test that reads the connection's prepared plans. */
    Written writeOn(Connection c, ReservationAttempt a, ReservationView held, StoredResponse created, Duration keyWait,
            boolean guessed, AutocommitEvents.LeasedRow event) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SENT)) {
            ps.setString(1, Long.toString(Math.max(1, keyWait.toMillis())));
            // a line the client gave no location, placed by a guess: the statement checks that it is where a read would place it
            List<Boolean> guesses = a.request().lines().stream().map(l -> guessed && l.location() == null).toList();
            NewReservations.Entry entry = new NewReservations.Entry(a.key().value(), held, event, a.fingerprint(), created);
            int i = NewReservations.bind(c, ps, 1, a.tenantId(), List.of(entry), guesses);
            ps.setString(++i, Long.toString(Math.max(1, recordWait.toMillis())));
            try {
                return written(ps);
            } catch (PSQLException e) {
                String state = e.getSQLState();
                if (HOLD_LOST.equals(state) || HOLD_EMPTIES.equals(state)) {
                    return new Written(Result.TRANSACTIONAL_PATH, 0, null);
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

    /**
     * The statement's answer (the second result, after the setting's): whether the key was claimed, the event row's,
     * and how many guessed lines were misplaced.
     */
    private static Written written(PreparedStatement ps) throws SQLException {
        ps.execute();
        ps.getMoreResults();
        try (ResultSet rs = ps.getResultSet()) {
            rs.next(); // always one row
            if (rs.getBoolean(1)) {
                return new Written(Result.CREATED, rs.getLong(2), rs.getTimestamp(3).toInstant());
            }
            // nothing claimed: a stale guess (then the key was not tried), or a key already stored
            return new Written(rs.getLong(4) > 0 ? Result.MISPLACED : Result.KEY_TAKEN, 0, null);
        }
    }

    /** A lock timeout while waiting on the key's row, not on a stock record's: PostgreSQL names the relation. */
    private static boolean waitedForTheKey(ServerErrorMessage message) {
        return message != null && message.getWhere() != null && message.getWhere().contains("\"idempotency_records\"");
    }
}
