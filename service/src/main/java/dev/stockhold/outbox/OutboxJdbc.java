package dev.stockhold.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import io.agroal.api.AgroalDataSource;

/**
 * The outbox's one way to reach the database, with its two transaction rules as two entry points: the write of new
 * events joins the caller's transaction (and refuses to run without one: an event committed apart from its change would
 * break I4), while the relay's, the jobs' and the admin's statements each run in a transaction of their own (and refuse
 * to run inside a caller's: their COMMIT would commit half of the caller's work). SQL failures become
 * {@link IllegalStateException} here and nowhere else in the outbox.
 */
@ApplicationScoped
class OutboxJdbc {

    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    @FunctionalInterface
    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    @FunctionalInterface
    interface RowBinder<R> {
        void bind(PreparedStatement ps, R row) throws SQLException;
    }

    private final AgroalDataSource dataSource;
    private final TransactionSynchronizationRegistry transactions;

    OutboxJdbc(AgroalDataSource dataSource, TransactionSynchronizationRegistry transactions) {
        this.dataSource = dataSource;
        this.transactions = transactions;
    }

    /** One statement per row, batched in one round trip, in the caller's transaction. */
    <R> void batchInCallersTransaction(String sql, List<R> rows, RowBinder<R> binder) {
        requireCallersTransaction(sql);
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (R row : rows) {
                binder.bind(ps, row);
                ps.addBatch();
            }
            ps.executeBatch();
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /** One statement in the caller's transaction; the reader sees its result set. */
    <T> T queryInCallersTransaction(String sql, Binder binder, Reader<T> reader) {
        requireCallersTransaction(sql);
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return reader.read(rs);
            }
        } catch (SQLException e) {
            throw failed(e);
        }
    }

    /**
     * {@code BEGIN; PLAN; sql; COMMIT} in one round trip ({@code sql} may be several statements: the reader sees each
     * result set, and the last one's value is returned): a real transaction block of its own, so the SET LOCALs hold for
     * the statement and end with it ({@link OutboxDialect#PLAN}: no outbox statement may depend on the statistics). On
     * an error the block is rolled back before the connection goes back to the pool.
     */
    <T> T inOwnTransaction(String sql, Binder binder, Reader<T> reader) {
        if (transactions.getTransactionStatus() != Status.STATUS_NO_TRANSACTION) {
            throw new IllegalStateException("An outbox statement with its own COMMIT was called inside a transaction: it would "
                    + "commit the caller's work half way. Call it outside @Transactional.");
        }
        try (Connection c = dataSource.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("BEGIN; " + OutboxDialect.PLAN + "; " + sql + "; COMMIT")) {
                binder.bind(ps);
                boolean isResultSet = ps.execute();
                T result = null;
                while (isResultSet || ps.getUpdateCount() != -1) {
                    if (isResultSet) {
                        try (ResultSet rs = ps.getResultSet()) {
                            result = reader.read(rs);
                        }
                    }
                    isResultSet = ps.getMoreResults();
                }
                return result;
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

    private void requireCallersTransaction(String sql) {
        if (transactions.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("Outbox events are written in the transaction of the change they describe (I4); "
                    + "none is active for: " + sql.strip().lines().findFirst().orElse(sql));
        }
    }

    /** The outbox's one translation of a database failure. */
    private static IllegalStateException failed(SQLException e) {
        return new IllegalStateException(e);
    }
}
