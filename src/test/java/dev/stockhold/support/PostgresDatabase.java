package dev.stockhold.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Tests run against a real PostgreSQL server (no Docker here, so no Dev Services). {@code .ci/run} creates a fresh
 * database and passes it as {@code QUARKUS_DATASOURCE_JDBC_URL}; without it, the local server's
 * {@code stockhold_test} database is used, created on first run.
 */
public class PostgresDatabase implements QuarkusTestResourceLifecycleManager {

    static final String DEFAULT_SERVER = "jdbc:postgresql://127.0.0.1:5432/";
    static final String DEFAULT_DATABASE = "stockhold_test";

    @Override
    public Map<String, String> start() {
        String user = env("QUARKUS_DATASOURCE_USERNAME", "postgres");
        String password = env("QUARKUS_DATASOURCE_PASSWORD", "");
        String url = System.getenv("QUARKUS_DATASOURCE_JDBC_URL");
        if (url == null || url.isBlank()) {
            createIfAbsent(user, password);
            url = DEFAULT_SERVER + DEFAULT_DATABASE;
        }
        return Map.of(
                "quarkus.datasource.jdbc.url", url,
                "quarkus.datasource.username", user,
                "quarkus.datasource.password", password);
    }

    @Override
    public void stop() {
        // The database outlives the run: each test uses its own random tenant, so runs never collide.
    }

    private static void createIfAbsent(String user, String password) {
        try (Connection c = DriverManager.getConnection(DEFAULT_SERVER + "postgres", user, password);
                PreparedStatement exists = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, DEFAULT_DATABASE);
            try (ResultSet rs = exists.executeQuery()) {
                if (!rs.next()) {
                    try (Statement create = c.createStatement()) {
                        create.execute("CREATE DATABASE " + DEFAULT_DATABASE);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Tests need PostgreSQL at " + DEFAULT_SERVER
                    + " (or QUARKUS_DATASOURCE_JDBC_URL): " + e.getMessage(), e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
