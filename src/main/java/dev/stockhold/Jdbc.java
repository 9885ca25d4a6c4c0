package dev.stockhold;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.agroal.api.AgroalDataSource;

/**
 * The one way Stockhold's own SQL reaches the database (entities go through Hibernate; everything written as SQL comes
 * here). Each method names its transaction mode:
 * <ul>
 * <li>{@link #run} (one statement) and {@link #withConnection} (several): the caller's transaction if one is
 * active (Agroal hands out the connection enlisted in it), else each statement alone in autocommit.</li>
 * <li>{@link #inCallersTransaction}: refuses to run without the caller's transaction, for writes that must commit with
 * the change they belong to (an outbox event, I4).</li>
 * <li>{@link #inOwnTransaction}: {@code BEGIN; ...; COMMIT} in one round trip, refused inside a caller's transaction
 * (its COMMIT would commit half of the caller's work).</li>
 * </ul>
 * A failed statement becomes a {@link DatabaseException} here and nowhere else; {@link DatabaseFailures} reads the
 * SQLState it carries. Work that must tell one SQLState from another (a lock wait that ran out) catches
 * {@link SQLException} inside its own lambda.
 */
@ApplicationScoped
public class Jdbc {

    /** What runs with the prepared statement (and its connection, for arrays). */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c, PreparedStatement ps) throws SQLException;
    }

    /** What runs with a connection, for work of several statements. */
    @FunctionalInterface
    public interface ConnectionWork<T> {
        T run(Connection c) throws SQLException;
    }

    @Inject
    AgroalDataSource dataSource;
    @Inject
    TransactionSynchronizationRegistry transactions;

    /** {@code sql} in the caller's transaction if one is active, else alone in autocommit. */
    public <T> T run(String sql, Work<T> work) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            return work.run(c, ps);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Several statements on one connection: the caller's transaction if one is active, else each in autocommit. */
    public <T> T withConnection(ConnectionWork<T> work) {
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** {@code sql} in the caller's transaction; without one it refuses to run, saying {@code why} it needs one. */
    public <T> T inCallersTransaction(String why, String sql, Work<T> work) {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException(why + "; no transaction is active for: " + sql.strip().lines().findFirst().orElse(sql));
        }
        return run(sql, work);
    }

    /**
     * {@code BEGIN; sql; COMMIT} in one round trip ({@code sql} may be several statements; the work sees the prepared
     * statement after execution, for its results): a transaction block of its own, so a SET LOCAL in it holds for the
     * statements and ends with them. On an error the block is rolled back before the connection goes back to the pool.
     */
    public <T> T inOwnTransaction(String sql, Work<T> work) {
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("A statement with its own COMMIT was called inside a transaction: it would commit "
                    + "the caller's work half way. Call it outside @Transactional.");
        }
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("BEGIN; " + sql + "; COMMIT")) {
                return work.run(c, ps);
            } catch (SQLException e) {
                try (Statement rollback = c.createStatement()) {
                    rollback.execute("ROLLBACK");
                } catch (SQLException ignored) {
                    // the connection is gone; the pool discards it
                }
                throw e;
            }
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** The one translation of a failed statement. */
    private static DatabaseException failed(SQLException e) {
        return new DatabaseException(e);
    }

    /** A statement failed; the cause is the driver's {@link SQLException} with its SQLState. */
    public static class DatabaseException extends RuntimeException {
        DatabaseException(SQLException cause) {
            super(cause);
        }
    }
}
