package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The claim under a backlog, on a table whose statistics are out of date (what a queue table's statistics are most of
 * the time): it must read about one batch, not the whole backlog. Everything runs on a private copy of the table in
 * one transaction that is rolled back, so nothing else ever sees it.
 */
@QuarkusTest
class OutboxClaimPlanTest {

    private static final int HISTORY = 40_000;
    private static final int BACKLOG = 30_000;
    private static final int BATCH = 100;
    /** One batch costs a few hundred buffers; reading the whole backlog costs about 100,000. */
    private static final long BUFFER_BUDGET = 5_000;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper mapper;

    @Test
    void shouldClaimOneBatchInSeqOrderWithoutReadingTheWholeBacklog() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                try (Statement s = c.createStatement()) {
                    // a private copy of the outbox with the schema's own indexes, so the statistics are ours to set
                    s.execute("CREATE SCHEMA claim_plan_test");
                    s.execute("CREATE TABLE claim_plan_test.outbox_events (LIKE public.outbox_events INCLUDING ALL)");
                    s.execute("SET LOCAL search_path = claim_plan_test");
                    s.execute("SET LOCAL statement_timeout = '20s'");
                    s.execute("ANALYZE outbox_events");   // statistics of an empty table, as right after a deployment
                }
                insertEvents(c, HISTORY, "PUBLISHED");   // then a history and a backlog the statistics do not know
                insertEvents(c, BACKLOG, "PENDING");
                String pendingSeqIndex = pendingSeqIndex(c);

                // the control: left to itself the planner reads every pending row and sorts them (what V4 fixed);
                // should a PostgreSQL release stop doing that, CLAIM_PLAN could go
                JsonNode unguided = explainClaim(c);
                assertThat(nodeTypes(unguided.path("Plan"))).contains("Sort");
                assertThat(buffers(unguided)).isGreaterThan(BUFFER_BUDGET);

                try (Statement s = c.createStatement()) {
                    s.execute(OutboxStore.CLAIM_PLAN);
                }
                JsonNode claim = explainClaim(c);
                assertThat(nodeTypes(claim.path("Plan"))).doesNotContain("Sort", "Bitmap Heap Scan");
                assertThat(indexes(claim.path("Plan"))).contains(pendingSeqIndex);
                assertThat(claim.path("Plan").path("Actual Rows").asLong()).isEqualTo(BATCH);
                assertThat(buffers(claim)).isLessThan(BUFFER_BUDGET);
            } finally {
                c.rollback();
            }
        }
    }

    /** The copy's name for the index on (seq) WHERE status = 'PENDING'. */
    private static String pendingSeqIndex(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT indexname FROM pg_indexes
                 WHERE schemaname = 'claim_plan_test' AND indexdef LIKE '%(seq) WHERE ((status)::text = ''PENDING''::text)'
                """)) {
            assertThat(rs.next()).as("an index on seq over pending rows (V4)").isTrue();
            return rs.getString(1);
        }
    }

    private static void insertEvents(Connection c, int count, String status) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, status, created_at, available_at,
                                           published_at)
                SELECT gen_random_uuid(), 'plan-test', gen_random_uuid(), 'dev.stockhold.reservation.created.v1', '{}', ?,
                       now(), now() - interval '1 second', CASE WHEN ? = 'PUBLISHED' THEN now() END
                  FROM generate_series(1, ?)
                """)) {
            ps.setString(1, status);
            ps.setString(2, status);
            ps.setInt(3, count);
            ps.executeUpdate();
        }
    }

    /** Runs the relay's claim (it is rolled back with the rest) and returns its measured plan. */
    private JsonNode explainClaim(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + OutboxStore.CLAIM)) {
            ps.setString(1, "plan-test-relay");
            ps.setLong(2, 60_000);
            ps.setInt(3, BATCH);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return mapper.readTree(rs.getString(1)).get(0);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static long buffers(JsonNode explained) {
        JsonNode plan = explained.path("Plan");
        return plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong();
    }

    private static List<String> nodeTypes(JsonNode plan) {
        List<String> types = new ArrayList<>();
        collect(plan, "Node Type", types);
        return types;
    }

    private static List<String> indexes(JsonNode plan) {
        List<String> names = new ArrayList<>();
        collect(plan, "Index Name", names);
        return names;
    }

    private static void collect(JsonNode plan, String field, List<String> into) {
        if (plan.has(field)) {
            into.add(plan.get(field).asText());
        }
        for (JsonNode child : plan.path("Plans")) {
            collect(child, field, into);
        }
    }
}
