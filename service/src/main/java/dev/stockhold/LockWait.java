package dev.stockhold;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import io.agroal.api.AgroalDataSource;

/**
 * How long the current transaction waits for a row lock ({@code lock_timeout}, local to the transaction), above all
 * for an in-flight original holding an idempotency key: PostgreSQL makes a second insert of the same key wait for the
 * first transaction to end. Past the wait the statement fails with 55P03, which callers answer as "in progress" or
 * 503.
 */
@ApplicationScoped
public class LockWait {

    private final AgroalDataSource dataSource;

    LockWait(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The statement that sets the wait; prefixed to a statement that needs it, so both go in one round trip. */
    public static String statement(Duration wait) {
        return "SET LOCAL lock_timeout = " + Math.max(1, wait.toMillis());
    }

    /** Bounds the waits of the rest of the current transaction. */
    public void limit(Duration wait) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute(statement(wait));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
