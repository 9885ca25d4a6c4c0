package dev.stockhold.outbox;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;

/**
 * The outbox's statements on {@link Jdbc}, with its two transaction rules as two entry points: the write of new events
 * joins the caller's transaction (and refuses to run without one: an event committed apart from its change would
 * break I4), while the relay's, the jobs' and the admin's statements each run in a transaction of their own with
 * {@link OutboxDialect#PLAN} (and refuse to run inside a caller's: their COMMIT would commit half of the caller's work).
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

    private static final String IN_THE_CHANGES_TRANSACTION = "Outbox events are written in the transaction of the change they describe (I4)";

    @Inject
    Jdbc jdbc;

    /** One statement per row, batched in one round trip, in the caller's transaction. */
    <R> void batchInCallersTransaction(String sql, List<R> rows, RowBinder<R> binder) {
        jdbc.inCallersTransaction(IN_THE_CHANGES_TRANSACTION, sql, (c, ps) -> {
            for (R row : rows) {
                binder.bind(ps, row);
                ps.addBatch();
            }
            return ps.executeBatch();
        });
    }

    /** One statement in the caller's transaction; the reader sees its result set. */
    <T> T queryInCallersTransaction(String sql, Binder binder, Reader<T> reader) {
        return jdbc.inCallersTransaction(IN_THE_CHANGES_TRANSACTION, sql, (c, ps) -> {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return reader.read(rs);
            }
        });
    }

    /**
     * {@code BEGIN; PLAN; sql; COMMIT} in one round trip ({@code sql} may be several statements: the reader sees each
     * result set, and the last one's value is returned), so the SET LOCALs of {@link OutboxDialect#PLAN} hold for the
     * statement and end with it: no outbox statement may depend on the statistics.
     */
    <T> T inOwnTransaction(String sql, Binder binder, Reader<T> reader) {
        return jdbc.inOwnTransaction(OutboxDialect.PLAN + "; " + sql, (c, ps) -> {
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
        });
    }
}
