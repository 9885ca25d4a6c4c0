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
 * here). Every call names its transaction mode ({@link Mode}) and is refused in the wrong one, so no statement runs in
 * autocommit by accident, nor joins a transaction it should stay out of:
 * <ul>
 * <li>{@link #run} (one statement) and {@link #withConnection} (several), in the {@link Mode} the caller names: JOIN the
 * caller's transaction (Agroal hands out the connection enlisted in it), AUTOCOMMIT alone, or a plain READ that is
 * correct either way.</li>
 * <li>{@link #inCallersTransaction}: JOIN, with the reason the write needs the caller's transaction (an outbox event
 * commits with the change it belongs to, I4).</li>
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

    /** How a call's statements relate to the caller's transaction. */
    public enum Mode {
        /** In the caller's transaction; refused without one (a write that commits with its change, a lock held to its end). */
        JOIN,
        /** Each statement commits on its own; refused inside a caller's transaction, where it would not. */
        AUTOCOMMIT,
        /**
         * A plain read, correct in either (the caller's transaction if one is active, else alone); refused for a
         * statement that writes or locks rows.
         */
        READ
    }

    private static final java.util.regex.Pattern WRITES_OR_LOCKS = java.util.regex.Pattern.compile(
            "\\b(INSERT|UPDATE|DELETE|MERGE|FOR\\s+(NO\\s+KEY\\s+)?(UPDATE|SHARE)|FOR\\s+KEY\\s+SHARE)\\b",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** The READ statement texts already found to neither write nor lock. */
    private final java.util.Set<String> checkedReads = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Inject
    AgroalDataSource dataSource;
    @Inject
    TransactionSynchronizationRegistry transactions;

    /** {@code sql} in the named mode; refused in the wrong one. */
    public <T> T run(Mode mode, String sql, Work<T> work) {
        require(mode, sql);
        return execute(sql, work);
    }

    private <T> T execute(String sql, Work<T> work) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            return work.run(c, ps);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** Several statements on one connection, in the named mode (JOIN or AUTOCOMMIT); refused in the wrong one. */
    public <T> T withConnection(Mode mode, ConnectionWork<T> work) {
        if (mode == Mode.READ) {
            throw new IllegalArgumentException("several statements name JOIN or AUTOCOMMIT: their SQL is not checked for writes");
        }
        require(mode, "several statements");
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** {@code sql} in the caller's transaction; without one it refuses to run, saying {@code why} it needs one. */
    public <T> T inCallersTransaction(String why, String sql, Work<T> work) {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException(why + "; no transaction is active for: " + firstLine(sql));
        }
        return execute(sql, work);
    }

    private void require(Mode mode, String sql) {
        int status = transactions.getTransactionStatus();
        switch (mode) {
            case JOIN -> {
                if (status != Status.STATUS_ACTIVE) {
                    throw new IllegalStateException("JOIN needs the caller's transaction; none is active for: " + firstLine(sql));
                }
            }
            case AUTOCOMMIT -> {
                if (status != Status.STATUS_NO_TRANSACTION) {
                    throw new IllegalStateException("AUTOCOMMIT must not run inside a transaction: " + firstLine(sql));
                }
            }
            case READ -> {
                // each statement text is checked once: the texts are the repositories' constants and a few query shapes
                if (!checkedReads.contains(sql)) {
                    if (WRITES_OR_LOCKS.matcher(sql).find()) {
                        throw new IllegalArgumentException("a READ writes or locks rows; name JOIN or AUTOCOMMIT: " + firstLine(sql));
                    }
                    checkedReads.add(sql);
                }
            }
        }
    }

    private static String firstLine(String sql) {
        return sql.strip().lines().findFirst().orElse(sql);
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
