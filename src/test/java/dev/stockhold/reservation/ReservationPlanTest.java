package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.PrivateCopies;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The one-statement reservation on a connection that first wrote while the tables were empty, then kept writing while
 * they grew: what a pooled connection of a long-running replica meets when the statistics were taken on small tables
 * (autovacuum off, or not yet run). PostgreSQL plans the statement, and every lookup a constraint makes on its behalf,
 * once per connection and keeps the plan. A new reservation must read the rows it writes and the records it holds,
 * never the reservations made before it: measured as rows read by sequential scans in the statement's own execution
 * (pg_stat_xact_user_tables). The tables are private copies (the schema's own indexes and foreign keys) in a
 * transaction that is rolled back, so nothing else ever sees them.
 */
@QuarkusTest
class ReservationPlanTest {

    /**
     * Reservations made before the measured one (without lines: a line of the history would itself be checked by the
     * control's foreign key, through the same plan, against every reservation before it).
     */
    private static final int HISTORY = 50_000;
    private static final int SKUS = 1_000;
    private static final List<String> TABLES = List.of("idempotency_records", "reservations", "reservation_lines", "outbox_events",
            "stock_records", "locations");
    /**
     * The connection's first reservations, written as the transactional path writes them: PostgreSQL plans a
     * constraint's lookup for the values five times, then makes the plan without values it keeps from then on.
     */
    private static final int TRANSACTIONAL_FIRST = 6;
    /** The foreign key reservation_lines had until V17: its lookup of the reservation is planned once per connection. */
    private static final String LINES_FOREIGN_KEY = "ALTER TABLE reservation_lines ADD FOREIGN KEY (reservation_id) REFERENCES reservations (id)";

    @Inject
    DataSource dataSource;

    /**
     * The statement's settings before V17 and the plan test: a generic plan, made with every path open. Made on a
     * stock_records of 1,000 rows, its hold scanned every record: ten index probes (the planner's guess for the lines
     * of a reservation) cost more than reading 1,000 rows once.
     */
    private static final String GENERIC_PLAN_ONLY = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true)";

    @Test
    void shouldReadNoEarlierReservationNorOtherRecordWhenThePlansWereMadeOnSmallTables() throws SQLException {
        inPrivateCopies("schema", c -> assertThat(rowsScannedByTheNextReservation(c, OneStatementReservation.GENERIC_PLAN)).isZero());
    }

    /**
     * A control: with the foreign key V1 made, the same reservation reads every reservation before it, when the key's
     * lookup was planned on the connection's first lines, written by the transactional path.
     */
    @Test
    void shouldReadEveryEarlierReservationWithTheForeignKeyTheSchemaHadBefore() throws SQLException {
        inPrivateCopies("foreign_key", c -> {
            PrivateCopies.execute(c, LINES_FOREIGN_KEY);
            assertThat(rowsScannedByTheNextReservation(c, OneStatementReservation.GENERIC_PLAN)).isGreaterThanOrEqualTo(HISTORY);
        });
    }

    /** A control: without the settings that close the other paths, the hold reads every record of every tenant. */
    @Test
    void shouldReadEveryRecordWithAGenericPlanMadeWithEveryPathOpen() throws SQLException {
        inPrivateCopies("open_paths", c -> assertThat(rowsScannedByTheNextReservation(c, GENERIC_PLAN_ONLY)).isGreaterThanOrEqualTo(SKUS));
    }

    /**
     * A connection's life, shortened: its first reservations written as the transactional path writes them (plain
     * inserts, the pool's default settings), then the statement prepared under {@code settings} (local to this
     * transaction, as to the service's statement) and run once while reservations is nearly empty and stock_records
     * small, then {@link #HISTORY} reservations made; returns the rows the next run read by sequential scans.
     */
    private static long rowsScannedByTheNextReservation(Connection c, String settings) throws SQLException {
        PrivateCopies.execute(c, "INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received)"
                + " SELECT 'plan-test', 'SKU-' || n, 'default', 1000000000, 0, 1000000000 FROM generate_series(1, " + SKUS + ") n");
        for (String table : TABLES) {
            PrivateCopies.execute(c, "ANALYZE " + table);
        }
        for (int n = 1; n <= TRANSACTIONAL_FIRST; n++) {
            String id = "'00000000-0000-4000-8000-%012d'".formatted(n);
            PrivateCopies.execute(c, "INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at)"
                    + " VALUES (" + id + ", 'plan-test', 'HELD', 'transactional-" + n + "', now(), now(), now())");
            PrivateCopies.execute(c, "INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location)"
                    + " VALUES (" + id + ", 0, 'SKU-1', 1, 'default')");
        }
        PrivateCopies.execute(c, settings);
        PrivateCopies.execute(c, "PREPARE reserve AS " + PrivateCopies.numbered(NewReservations.ALONE));
        reserve(c, "first", 1);
        PrivateCopies.execute(c, """
                INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at)
                SELECT md5('plan-test-' || n)::uuid, 'plan-test', 'HELD', 'history-' || n, now(), now() + interval '15 minutes', now()
                  FROM generate_series(1, %d) n""".formatted(HISTORY));
        long before = rowsScanned(c);
        reserve(c, "measured", 2);
        return rowsScanned(c) - before;
    }

    /** One run of the prepared statement: a new key, one line of one unit. */
    private static void reserve(Connection c, String key, int sku) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        """
                                EXECUTE reserve('1000', 'plan-test', NULL, 'plan-test-relay', 30000,
                                                ARRAY[md5('%1$s')::uuid], ARRAY['%1$s'], ARRAY['\\x00'::bytea], ARRAY['{}'], ARRAY['/v1/reservations/x'],
                                                ARRAY[now()], ARRAY[now() + interval '15 minutes'], NULL, NULL, NULL, NULL, NULL, NULL, ARRAY[gen_random_uuid()],
                                                ARRAY['dev.stockhold.reservation.created.v1'], ARRAY['k'], ARRAY['{}'],
                                                ARRAY[md5('%1$s')::uuid], ARRAY[0], ARRAY['SKU-%2$d'], ARRAY[1], ARRAY['default'], ARRAY[true], '1000')"""
                                .formatted(key, sku))) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getBoolean(1)).as("the key was claimed and the hold taken").isTrue();
        }
    }

    /** Rows this transaction has read by sequential scans of the copies so far. */
    private static long rowsScanned(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_xact_user_tables"
                        + " WHERE schemaname = current_schema()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Copies of the statement's tables with the schema's indexes and foreign keys, first on the search path. */
    private void inPrivateCopies(String name, PrivateCopies.Work work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                PrivateCopies.create(c, name, TABLES, Duration.ofSeconds(60));
                for (String foreignKey : foreignKeys(c)) {
                    PrivateCopies.execute(c, foreignKey);
                }
                work.run(c);
            } finally {
                c.rollback();
                // a prepared statement outlives the transaction: the pooled connection goes back as it came
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_prepared_statements WHERE name = 'reserve'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        PrivateCopies.execute(c, "DEALLOCATE reserve");
                    }
                }
                c.rollback();
            }
        }
    }

    /** The schema's own foreign keys among the copied tables, as statements on the copies (names resolve to them). */
    private static List<String> foreignKeys(Connection c) throws SQLException {
        List<String> statements = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT t.relname, pg_get_constraintdef(k.oid)
                  FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
                 WHERE k.contype = 'f' AND t.relnamespace = 'public'::regnamespace
                   AND t.relname = ANY (?) AND r.relname = ANY (?)""")) {
            ps.setArray(1, c.createArrayOf("varchar", TABLES.toArray()));
            ps.setArray(2, c.createArrayOf("varchar", TABLES.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    statements.add("ALTER TABLE " + rs.getString(1) + " ADD " + rs.getString(2).replace("public.", ""));
                }
            }
        }
        return statements;
    }

}
