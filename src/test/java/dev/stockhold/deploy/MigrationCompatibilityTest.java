package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
                .dataSource(db.get("quarkus.datasource.jdbc.url"), db.get("quarkus.datasource.username"), db.get("quarkus.datasource.password"))
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
