package dev.stockhold.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.PrivateCopies;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The auditor's sample at 1,000,000 reservation lines with statistics taken while the tables were empty (autovacuum
 * off, a new tenant): it reads what the sample and the tenant's active holds need, measured in buffers (EXPLAIN
 * ANALYZE, BUFFERS), never history. The control, the earlier shape that summed every HELD and CONFIRMED line of each
 * record, reads the history under the same statistics. Private copies of the tables, rolled back.
 */
@QuarkusTest
class AuditorPlanTest {

    private static final int RESERVATIONS = 500_000; // two lines each
    private static final int ACTIVE_HOLDS = 1_000;
    private static final int RECORDS = 200;
    /** 200 records and 1,000 holds of two lines: a few thousand index pages and heap rows. */
    private static final long BUDGET = 20_000;
    /** Ledger entries per record: 200,000 in all, the last of each what the record holds. */
    private static final int LEDGER_ENTRIES = 1_000;

    /** The sample as it was: every HELD and CONFIRMED line of the record, summed for each record of the batch. */
    private static final String SUM_OF_HISTORY = """
            WITH batch AS (
                SELECT tenant_id, sku, location, on_hand, held, received FROM stock_records
                 WHERE (tenant_id, sku, location) > (?, ?, ?)
                 ORDER BY tenant_id, sku, location LIMIT ?)
            SELECT b.tenant_id, b.sku, b.location, b.on_hand, b.held, b.received, q.*
              FROM batch b CROSS JOIN LATERAL (
                SELECT coalesce(sum(l.quantity) FILTER (WHERE r.status = 'HELD'), 0),
                       coalesce(sum(l.quantity) FILTER (WHERE r.status = 'CONFIRMED'), 0)
                  FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                 WHERE l.sku = b.sku AND coalesce(l.location, 'default') = b.location AND r.tenant_id = b.tenant_id
                   AND r.status IN ('HELD', 'CONFIRMED')) q
             ORDER BY b.tenant_id, b.sku, b.location
            """;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper mapper;

    @Test
    void shouldAuditASampleByActiveHoldsNotByHistory() throws Exception {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            int socketTimeout = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, 300_000);
            try {
                PrivateCopies.execute(c, "CREATE SCHEMA plan_test_audit");
                for (String table : new String[]{ "stock_records", "reservations", "reservation_lines", "stock_movements", "transfers",
                        "purchase_orders" }) {
                    PrivateCopies.execute(c, "CREATE TABLE plan_test_audit." + table + " (LIKE public." + table + " INCLUDING ALL)");
                }
                PrivateCopies.execute(c, "SET LOCAL search_path = plan_test_audit");
                PrivateCopies.execute(c, "SET LOCAL statement_timeout = '280s'");
                PrivateCopies.execute(c, "ANALYZE stock_records; ANALYZE reservations; ANALYZE reservation_lines; ANALYZE stock_movements;"
                        + " ANALYZE transfers; ANALYZE purchase_orders"); // empty: the lie
                fill(c);

                PrivateCopies.execute(c, "SAVEPOINT control");
                // two records are enough to show it: each one walks the tenant's whole history
                JsonNode history = explain(c, SUM_OF_HISTORY, 2);
                PrivateCopies.execute(c, "ROLLBACK TO SAVEPOINT control");
                PrivateCopies.execute(c, AuditStatements.PLAN);
                JsonNode audit = explain(c, AuditStatements.SAMPLE, RECORDS);
                // held, every tenth run, for every record from one walk of the active holds
                JsonNode sweep = explain(c, AuditStatements.HELD_SWEEP);

                // the costliest run: a sample with the held sweep
                long runBuffers = buffers(audit) + buffers(sweep);
                double runMs = audit.path("Execution Time").asDouble() + sweep.path("Execution Time").asDouble();
                System.out.printf(
                        "[audit plan] %d lines, statistics from empty tables: sample of %d with the held sweep reads %d buffers in"
                                + " %.1f ms; the sum of history reads %d buffers in %.1f ms for 2 records%n",
                        RESERVATIONS * 2, RECORDS, runBuffers,
                        runMs, buffers(history), history.path("Execution Time").asDouble());
                System.out.printf("[audit plan] of which the sample %d buffers, the held sweep over %d active holds %d%n", buffers(audit),
                        ACTIVE_HOLDS, buffers(sweep));
                assertThat(rows(sweep)).as("every record holds what its lines say").isZero();
                assertThat(buffers(sweep)).as("buffers of the held sweep").isLessThan(BUDGET);
                assertThat(seqScanned(sweep.path("Plan"))).as("tables the sweep reads whole").doesNotContain("reservations",
                        "reservation_lines");
                assertThat(runBuffers).as("buffers of a run with the sweep").isLessThan(BUDGET);
                assertThat(rows(audit)).isEqualTo(RECORDS);
                assertThat(buffers(audit)).as("buffers of the audit's sample").isLessThan(BUDGET);
                assertThat(buffers(history)).as("the control reads history").isGreaterThan(10 * BUDGET);
                assertThat(audit.toString()).doesNotContain("\"Seq Scan\"");
                // past the first record the planner expects a batch of one row, and summed the tenant's active holds
                // again for every record of the batch (27 s for 200 records at 47,000 holds): they are summed once
                JsonNode midway = explain(c, AuditStatements.SAMPLE, RECORDS, "SKU-0001");
                assertThat(maxLoops(audit.path("Plan"), "Aggregate")).as("runs of an aggregate from the start").isEqualTo(1);
                assertThat(maxLoops(midway.path("Plan"), "Aggregate")).as("runs of an aggregate from midway").isEqualTo(1);

                // every record known to fail, rechecked in one statement: the sums once, not once per record (one
                // statement per record summed the tenant's active holds for each: 60 records cost a second a run)
                JsonNode known = explainKnown(c, RECORDS);
                JsonNode one = explainKnown(c, 1);
                System.out.printf("[audit plan] recheck of %d known violators reads %d buffers in %.1f ms; of one, %d buffers%n", RECORDS,
                        buffers(known), known.path("Execution Time").asDouble(), buffers(one));
                assertThat(RECORDS * buffers(one)).as("the control: a statement per violator").isGreaterThan(10 * BUDGET);
                assertThat(rows(known)).isEqualTo(RECORDS);
                assertThat(maxLoops(known.path("Plan"), "Aggregate")).as("runs of an aggregate in the recheck").isEqualTo(1);
                assertThat(buffers(known)).as("buffers of the recheck").isLessThan(BUDGET);
                assertThat(known.toString()).doesNotContain("\"Seq Scan\"");

                // the ledger's chain from where the last audit stopped: the entries since, never the whole ledger
                JsonNode chain = explainChain(c, LEDGER_ENTRIES - 10);
                System.out.printf("[audit plan] ledger of %d entries a record: the chain of the last 10 reads %d buffers in %.1f ms%n",
                        LEDGER_ENTRIES, buffers(chain), chain.path("Execution Time").asDouble());
                assertThat(rows(chain)).isEqualTo(RECORDS);
                assertThat(buffers(chain)).as("buffers of the chain check").isLessThan(BUDGET);
                assertThat(chain.toString()).doesNotContain("\"Seq Scan\"");
            } finally {
                c.rollback();
                c.setNetworkTimeout(Runnable::run, socketTimeout);
            }
        }
    }

    /**
     * One tenant, 200 records; 500,000 reservations of two lines over them, all but 1,000 ended. Statistics: the records
     * analyzed once filled, reservations and lines while empty.
     */
    private static void fill(Connection c) throws SQLException {
        PrivateCopies.execute(c, """
                INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received, sold)
                SELECT 'audit', 'SKU-' || lpad(i::text, 4, '0'), 'default', 1000000, 0, 1000000, 0
                  FROM generate_series(1, %d) i
                """.formatted(RECORDS));
        // the records as a stock feed left them, the reservations still empty, as the benchmark's seed does
        PrivateCopies.execute(c, "ANALYZE stock_records");
        PrivateCopies.execute(c, """
                INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at)
                SELECT md5(i::text)::uuid, 'audit',
                       CASE WHEN i <= %d THEN 'HELD' WHEN i %% 3 = 0 THEN 'CANCELLED' ELSE 'CONFIRMED' END,
                       'k-' || i, now(), now() + interval '1 hour', now()
                  FROM generate_series(1, %d) i
                """.formatted(ACTIVE_HOLDS, RESERVATIONS));
        PrivateCopies.execute(c, """
                INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location)
                SELECT md5(i::text)::uuid, n, 'SKU-' || lpad((((i + n) %% %d) + 1)::text, 4, '0'), 1, NULL
                  FROM generate_series(1, %d) i, generate_series(1, 2) n
                """.formatted(RECORDS, RESERVATIONS));
        // each record's ledger: an opening entry, then adjustments of one unit down and up, ending where it began
        PrivateCopies.execute(c, """
                INSERT INTO stock_movements (tenant_id, sku, location, seq, kind, on_hand_delta, committed_delta, on_hand_after,
                                             committed_after, version)
                SELECT 'audit', 'SKU-' || lpad(i::text, 4, '0'), 'default', n, CASE WHEN n = 1 THEN 'opening' ELSE 'adjust' END,
                       CASE WHEN n = 1 THEN 1000000 WHEN n %% 2 = 0 THEN -1 ELSE 1 END, 0,
                       CASE WHEN n %% 2 = 0 THEN 999999 ELSE 1000000 END, 0, n
                  FROM generate_series(1, %d) i, generate_series(1, %d) n
                """.formatted(RECORDS, LEDGER_ENTRIES + 1));
        PrivateCopies.execute(c, "UPDATE stock_records SET movements = %d".formatted(LEDGER_ENTRIES + 1));
        // what each record holds, so the audit finds it healthy
        PrivateCopies.execute(c, """
                UPDATE stock_records s SET held = h.quantity FROM (
                    SELECT l.sku, sum(l.quantity) AS quantity FROM reservations r JOIN reservation_lines l ON l.reservation_id = r.id
                     WHERE r.status = 'HELD' GROUP BY l.sku) h
                 WHERE s.sku = h.sku
                """);
    }

    private JsonNode explain(Connection c, String sql, int records) throws Exception {
        return explain(c, sql, records, null);
    }

    /** The tables a plan reads by sequential scan. */
    private static java.util.Set<String> seqScanned(JsonNode node) {
        java.util.Set<String> tables = new java.util.HashSet<>();
        if ("Seq Scan".equals(node.path("Node Type").asText())) {
            tables.add(node.path("Relation Name").asText());
        }
        for (JsonNode child : node.path("Plans")) {
            tables.addAll(seqScanned(child));
        }
        return tables;
    }

    /** A statement without parameters. */
    private JsonNode explain(Connection c, String sql) throws Exception {
        return plan(c, sql, ps -> {
        });
    }

    /** @param afterSku the sample's position (tenant "audit", location "default"); null: from the start */
    private JsonNode explain(Connection c, String sql, int records, String afterSku) throws Exception {
        return plan(c, sql, ps -> {
            ps.setString(1, afterSku == null ? "" : "audit");
            ps.setString(2, afterSku == null ? "" : afterSku);
            ps.setString(3, afterSku == null ? "" : "default");
            ps.setInt(4, records);
        });
    }

    /** The recheck of the first {@code records} records as known violators. */
    private JsonNode explainKnown(Connection c, int records) throws Exception {
        return plan(c, AuditStatements.KNOWN, ps -> bindRecords(c, ps, records));
    }

    /** The chain check of every record from this seq on. */
    private JsonNode explainChain(Connection c, long fromSeq) throws Exception {
        return plan(c, AuditStatements.CHAIN, ps -> {
            bindRecords(c, ps, RECORDS);
            Long[] from = new Long[RECORDS];
            java.util.Arrays.fill(from, fromSeq);
            ps.setArray(4, c.createArrayOf("bigint", from));
        });
    }

    /** Sets a statement's parameters. */
    private interface Binding {
        void bind(PreparedStatement ps) throws SQLException;
    }

    /** The executed plan of {@code sql} with its parameters bound, as EXPLAIN's JSON. */
    private JsonNode plan(Connection c, String sql, Binding binding) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)) {
            binding.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return mapper.readTree(rs.getString(1)).get(0);
            }
        }
    }

    /** Binds parameters 1-3 to the tenants, skus and locations of the first {@code records} records. */
    private static void bindRecords(Connection c, PreparedStatement ps, int records) throws SQLException {
        String[] skus = new String[records];
        for (int i = 0; i < records; i++) {
            skus[i] = "SKU-%04d".formatted(i + 1);
        }
        String[] tenants = new String[records];
        java.util.Arrays.fill(tenants, "audit");
        String[] locations = new String[records];
        java.util.Arrays.fill(locations, "default");
        ps.setArray(1, c.createArrayOf("varchar", tenants));
        ps.setArray(2, c.createArrayOf("varchar", skus));
        ps.setArray(3, c.createArrayOf("varchar", locations));
    }

    /** The most times a node of this type ran, anywhere in the plan. */
    private static long maxLoops(JsonNode node, String type) {
        long most = type.equals(node.path("Node Type").asText()) ? node.path("Actual Loops").asLong() : 0;
        for (JsonNode child : node.path("Plans")) {
            most = Math.max(most, maxLoops(child, type));
        }
        return most;
    }

    private static long buffers(JsonNode explained) {
        JsonNode plan = explained.path("Plan");
        return plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong();
    }

    private static long rows(JsonNode explained) {
        return explained.path("Plan").path("Actual Rows").asLong();
    }

}
