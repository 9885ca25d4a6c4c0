package dev.stockhold;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * How long the current transaction waits for a row lock ({@code lock_timeout}, local to the transaction), above all
 * for an in-flight original holding an idempotency key: PostgreSQL makes a second insert of the same key wait for the
 * first transaction to end. Past the wait the statement fails with 55P03, which callers answer as "in progress" or
 * 503.
 */
@ApplicationScoped
public class LockWait {

    @Inject
    Jdbc jdbc;

    /** The statement that sets the wait; prefixed to a statement that needs it, so both go in one round trip. */
    public static String statement(Duration wait) {
        return "SET LOCAL lock_timeout = " + Math.max(1, wait.toMillis());
    }

    /** Bounds the waits of the rest of the current transaction. */
    public void limit(Duration wait) {
        jdbc.run(Jdbc.Mode.JOIN, statement(wait), (c, ps) -> ps.execute());
    }
}
