package dev.stockhold;

import java.sql.SQLException;
import java.util.Locale;

import io.quarkus.logging.Log;

/**
 * Which database failures are transient (the work was rolled back and may simply be tried again), decided in one
 * place: a request answers them 503 with {@code Retry-After}, a background job skips its turn with one warning.
 */
public final class DatabaseFailures {

    /** SQLSTATE read_only_sql_transaction. */
    private static final String READ_ONLY_TRANSACTION = "25006";

    private DatabaseFailures() {
    }

    /**
     * Connection loss, deadlock, serialization failure, lock timeout, admin shutdown, no connection from the pool in
     * time, and a database that takes no writes (a primary demoted by a failover, or a connection that landed on a
     * standby): rolled back, safe to retry.
     */
    public static boolean isTransient(Throwable e) {
        return Causes.of(e).filter(SQLException.class::isInstance).map(SQLException.class::cast).findFirst()
                .map(DatabaseFailures::isTransient).orElse(false);
    }

    private static boolean isTransient(SQLException sql) {
        String state = sql.getSQLState();
        if (state == null) {
            // the pool's own: "Acquisition timeout while waiting for new connection" (creating one) and "Sorry,
            // acquisition timeout!" (every connection in use): no connection within the acquisition timeout
            return sql.getMessage() != null && sql.getMessage().toLowerCase(Locale.ROOT).contains("acquisition timeout");
        }
        return state.startsWith("08") || state.startsWith("40") || state.startsWith("57P")
                || state.equals("55P03") || state.equals("53300") || state.equals(READ_ONLY_TRANSACTION);
    }

    /**
     * Runs one turn of a scheduled job. While the database is away (a partition, a failover) the turn is skipped with
     * one warning line instead of an error with its stack every few seconds; the next turn tries again. Anything else
     * is thrown, and logged as the error it is.
     */
    public static void skipTurnWhileAway(String job, Runnable turn) {
        try {
            turn.run();
        } catch (RuntimeException e) {
            if (!isTransient(e)) {
                throw e;
            }
            Log.warnf("%s skipped a turn, the database is unavailable: %s", job, Causes.summary(e));
        }
    }
}
