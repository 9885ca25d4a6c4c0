package dev.stockhold.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

/**
 * Copies of the schema's tables for a plan test: a schema of their own ({@code plan_test_NAME}, tables made {@code LIKE}
 * the originals with every index and constraint but no foreign key), first on the search path, in the caller's open
 * transaction, which the caller rolls back. Statements written for the real tables run on the copies unchanged, with
 * statistics from empty tables and rows the test alone put there.
 */
public final class PrivateCopies {

    /** What a plan test does on its copies. */
    @FunctionalInterface
    public interface Work {
        void run(Connection c) throws SQLException;
    }

    private PrivateCopies() {
    }

    /** Creates the copies and puts them first on the search path, with a statement timeout, for this transaction. */
    public static void create(Connection c, String name, List<String> tables, Duration statementTimeout) throws SQLException {
        String schema = "plan_test_" + name;
        execute(c, "CREATE SCHEMA " + schema);
        for (String table : tables) {
            execute(c, "CREATE TABLE " + schema + "." + table + " (LIKE public." + table + " INCLUDING ALL)");
        }
        execute(c, "SET LOCAL search_path = " + schema + ", public");
        execute(c, "SET LOCAL statement_timeout = '" + statementTimeout.toMillis() + "ms'");
    }

    /** One statement on the connection, its result (if any) dropped. */
    public static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** JDBC's ? placeholders as $1, $2, ... for PREPARE. */
    public static String numbered(String sql) {
        StringBuilder out = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            out.append(ch == '?' ? "$" + ++n : String.valueOf(ch));
        }
        return out.toString();
    }
}
