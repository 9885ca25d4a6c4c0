package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.stockhold.support.PostgresDatabase;

/**
 * The migration policy canaries need (expand now, contract in a later release): old and new versions run side by
 * side on one schema. This applies the current migrations to an empty schema and runs every statement of each
 * release still supported against it; a migration that would break the stable version fails here, in CI.
 */
class MigrationCompatibilityTest {

    String schema;
    Map<String, String> db;

    @BeforeEach
    void migrate() {
        db = new PostgresDatabase().start();
        schema = "compat_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Flyway.configure()
                .dataSource(db.get("quarkus.datasource.jdbc.url"), db.get("quarkus.datasource.username"),
                        db.get("quarkus.datasource.password"))
                .schemas(schema).createSchemas(true)
                .locations("classpath:db/migration")
                .load().migrate();
    }

    @AfterEach
    void drop() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /**
     * Flyway refuses to start on a database whose history names a checksum the build no longer computes. The migrations
     * this build carries must give every checksum the last release recorded (compat/flyway-history-release.tsv, from a
     * database it migrated), wherever their files live in the repository.
     */
    @Test
    void shouldKeepTheChecksumsTheLastReleaseRecorded() throws Exception {
        Map<String, String> recorded = new java.util.TreeMap<>();
        for (String line : Files.readAllLines(Path.of("src/test/resources/compat/flyway-history-release.tsv"))) {
            if (!line.startsWith("#") && !line.isBlank()) {
                String[] f = line.split("\t");
                recorded.put(f[0], f[1] + " " + Path.of(f[2]).getFileName());
            }
        }
        assertThat(recorded).hasSizeGreaterThanOrEqualTo(15);
        Map<String, String> applied = new java.util.TreeMap<>();
        try (Connection c = connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT version, checksum, script FROM " + schema
                        + ".flyway_schema_history WHERE version IS NOT NULL")) {
            while (rs.next()) {
                // the script as the location names it: the file name is what must stay
                applied.put(rs.getString(1), rs.getInt(2) + " " + Path.of(rs.getString(3)).getFileName());
            }
        }
        assertThat(applied).containsAllEntriesOf(recorded);
    }

    @ParameterizedTest
    @ValueSource(strings = { "release-0.1.0.sql" })
    void shouldRunEveryStatementOfAStillSupportedReleaseAgainstTheCurrentSchema(String release) throws Exception {
        List<String> statements = statements(release);
        assertThat(statements).hasSizeGreaterThan(10);

        try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET search_path TO " + schema);
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
            c.rollback();
        }
    }

    /**
     * While a canary runs, the previous release (schema V6) keeps reserving, releasing and setting through stock_items.
     * V7's triggers carry each of those writes over to the 'default' stock record, so both releases guard one I1 and I2,
     * and the previous release can never take units this release has already held.
     */
    @Test
    void shouldCarryThePreviousReleasesStockWritesOverToTheDefaultStockRecord() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + schema);
            s.executeUpdate(previousSet("A-1", 10));
            assertThat(record(s)).isEqualTo("10/0/10/1");

            UUID first = previousReserve(s, 2);
            assertThat(s.executeUpdate(previousDecrement(2))).isEqualTo(1);
            assertThat(record(s)).as("on hand/held/received/version").isEqualTo("10/2/10/1");

            // this release holds the other 8 on the record itself; the previous release's copy still says 8 are free
            s.executeUpdate("UPDATE stock_records SET held = held + 8 WHERE tenant_id = 'compat' AND sku = 'A-1'");
            previousReserve(s, 1);
            assertThat(s.executeUpdate(previousDecrement(1))).as("refused against the real record").isZero();
            assertThat(record(s)).isEqualTo("10/10/10/1");

            // the previous release cancels: it releases through stock_items (ignored), then changes the status (carried)
            s.executeUpdate("UPDATE stock_items SET available = available + 2 WHERE tenant_id = 'compat' AND sku = 'A-1'");
            s.executeUpdate(previousTransition(first, "CANCELLED"));
            assertThat(record(s)).isEqualTo("10/8/10/1");

            UUID second = previousReserve(s, 2);
            assertThat(s.executeUpdate(previousDecrement(2))).isEqualTo(1);
            s.executeUpdate(previousTransition(second, "CONFIRMED"));
            assertThat(record(s)).as("confirm sells: on hand and held drop").isEqualTo("8/8/10/1");

            // a transition by this release moves the stock itself: the trigger leaves it alone
            UUID third = previousReserve(s, 0);
            s.executeUpdate("UPDATE reservations SET status = 'CANCELLED', status_changed_at = now() WHERE id = '" + third + "'");
            assertThat(record(s)).isEqualTo("8/8/10/1");

            s.executeUpdate(previousSet("A-1", 5));
            assertThat(record(s)).as("free-to-reserve 5 on top of the 8 held").isEqualTo("13/8/15/2");
            s.executeUpdate(previousSet("B-1", 3));
            assertThat(s.executeUpdate("INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received) "
                    + "VALUES ('compat', 'C-1', 'default', 4, 0, 4)")).isEqualTo(1);
            try (ResultSet rs = s.executeQuery("SELECT string_agg(sku || '=' || available, ',' ORDER BY sku) FROM stock_items")) {
                rs.next();
                assertThat(rs.getString(1)).as("a record this release creates is known to the previous one").isEqualTo("A-1=5,B-1=3,C-1=4");
            }
        }
    }

    /** The stock set statement of the release on schema V6 (its StockLedger.SET). */
    private static String previousSet(String sku, long available) {
        return """
                INSERT INTO stock_items AS s (tenant_id, sku, available, total) VALUES ('compat', '%1$s', %2$d, %2$d)
                ON CONFLICT (tenant_id, sku) DO UPDATE
                   SET total = coalesce(s.total, s.available + (
                           SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                            WHERE r.tenant_id = s.tenant_id AND l.sku = s.sku AND r.status IN ('HELD', 'CONFIRMED')))
                           + EXCLUDED.available - s.available,
                       available = EXCLUDED.available
                """.formatted(sku, available);
    }

    private static String previousDecrement(long quantity) {
        return "UPDATE stock_items SET available = available - " + quantity
                + " WHERE tenant_id = 'compat' AND sku = 'A-1' AND available >= " + quantity;
    }

    /** Hibernate's update of a reservation in the release on schema V6: every mapped column, no status_changed_at. */
    private static String previousTransition(UUID id, String status) {
        return "UPDATE reservations SET created_at = created_at, expires_at = expires_at, idempotency_key = idempotency_key, "
                + "metadata = metadata, reference = reference, status = '" + status + "', tenant_id = tenant_id, updated_at = now() "
                + "WHERE id = '" + id + "'";
    }

    private static UUID previousReserve(Statement s, int quantity) throws SQLException {
        UUID id = UUID.randomUUID();
        s.executeUpdate(
                "INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at, reference, metadata) "
                        + "VALUES ('" + id + "', 'compat', 'HELD', '" + id + "', now(), now() + interval '1 minute', now(), NULL, NULL)");
        if (quantity > 0) {
            s.executeUpdate("INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity) VALUES ('" + id + "', 0, 'A-1', "
                    + quantity + ")");
        }
        return id;
    }

    private static String record(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT on_hand || '/' || held || '/' || received || '/' || version FROM stock_records "
                + "WHERE tenant_id = 'compat' AND sku = 'A-1' AND location = 'default'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(db.get("quarkus.datasource.jdbc.url"), db.get("quarkus.datasource.username"),
                db.get("quarkus.datasource.password"));
    }

    private static List<String> statements(String release) throws IOException {
        try (InputStream in = MigrationCompatibilityTest.class.getResourceAsStream("/compat/" + release)) {
            List<String> statements = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("--")) {
                    statements.add(line.endsWith(";") ? line.substring(0, line.length() - 1) : line);
                }
            }
            return statements;
        }
    }
}
