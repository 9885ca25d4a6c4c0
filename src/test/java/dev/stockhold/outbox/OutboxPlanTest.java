package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.PrivateCopies;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The outbox statements against statistics that lie, measured in buffers read (EXPLAIN ANALYZE, BUFFERS). A queue
 * table's statistics are wrong most of the time: analyzed while quiet they say nothing is pending, and a plan cached
 * while the table was empty stays in use as it grows. Every statement must read about what it returns, never the
 * backlog or the retained history. Each test works on a private copy of the table (the schema's own indexes) in a
 * transaction that is rolled back, so nothing else ever sees it.
 */
@QuarkusTest
class OutboxPlanTest {

    private static final int BACKLOG = 40_000;
    private static final int BATCH = 100;
    /**
     * A claim of 100 walks about 200 pending rows (each reservation's second event waits behind its first), probes each
     * one's aggregate and leases 100 rows: about 3,000 buffers. Reading the backlog once per candidate costs millions.
     */
    private static final long CLAIM_BUDGET = 5_000;

    /** The claim as it was before OutboxDialect.CLAIM: the ordering check was a NOT EXISTS the planner could turn into a join. */
    private static final String CLAIM_WITH_NOT_EXISTS = """
            UPDATE outbox_events o
               SET locked_by = ?, locked_until = now() + ? * interval '1 millisecond'
             WHERE o.id IN (
                   SELECT c.id FROM outbox_events c
                    WHERE c.status = 'PENDING' AND c.available_at <= now()
                      AND (c.locked_until IS NULL OR c.locked_until < now())
                      AND NOT EXISTS (SELECT 1 FROM outbox_events e
                                       WHERE e.aggregate_id = c.aggregate_id AND e.seq < c.seq AND e.status <> 'PUBLISHED')
                    ORDER BY c.seq
                    LIMIT ?
                      FOR UPDATE SKIP LOCKED)
            RETURNING o.id
            """;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper mapper;

    @Test
    void shouldClaimOneBatchWhenTheStatisticsWereTakenOnAQuietTable() throws SQLException {
        inPrivateCopy("quiet_stats", c -> {
            insert(c, 20_000, "PUBLISHED", 0);
            PrivateCopies.execute(c, "ANALYZE outbox_events"); // nothing pending: what autovacuum leaves after a quiet period
            insertTwoPerAggregate(c, BACKLOG);

            // the control: the earlier claim, under the same settings, probes the whole backlog for every candidate
            PrivateCopies.execute(c, "SAVEPOINT control");
            JsonNode naive = explain(c, CLAIM_WITH_NOT_EXISTS, "relay", 60_000L, BATCH);
            assertThat(buffers(naive)).as("the NOT EXISTS claim on hostile statistics").isGreaterThan(100 * CLAIM_BUDGET);
            PrivateCopies.execute(c, "ROLLBACK TO SAVEPOINT control");

            JsonNode claim = explain(c, OutboxDialect.CLAIM, "relay", 60_000L, BATCH);
            assertThat(rows(claim)).isEqualTo(BATCH);
            assertThat(buffers(claim)).isLessThan(CLAIM_BUDGET);
        });
    }

    /**
     * What a long-running replica meets: the claim and the mark are server-side prepared statements whose generic plan
     * was built while the table was empty (here forced, and built by running each once on the empty table). An
     * earlier claim written with IN (...) got, this way, a semi join that ran the whole walk again for every row of the
     * table: 28 million buffers and 22 s for one claim of 100.
     */
    @Test
    void shouldClaimAndMarkOneBatchWithGenericPlansCachedWhileTheTableWasEmpty() throws SQLException {
        inPrivateCopy("generic_plan", c -> {
            PrivateCopies.execute(c, "ANALYZE outbox_events");
            PrivateCopies.execute(c, "SET LOCAL plan_cache_mode = force_generic_plan");
            PrivateCopies.execute(c, OutboxDialect.PLAN);
            PrivateCopies.execute(c, "PREPARE cached_claim(text, bigint, int) AS " + PrivateCopies.numbered(OutboxDialect.CLAIM));
            PrivateCopies.execute(c, "PREPARE cached_published(uuid[], text) AS " + PrivateCopies.numbered(OutboxDialect.MARK_PUBLISHED));
            PrivateCopies.execute(c, "PREPARE cached_failed(int, uuid[], text[], text[], boolean[], timestamptz[], uuid[], text) AS "
                    + PrivateCopies.numbered(OutboxDialect.MARK_FAILED));
            PrivateCopies.execute(c, "EXECUTE cached_claim('relay', 60000, " + BATCH + ")");
            PrivateCopies.execute(c, "EXECUTE cached_published('{}', 'relay')");
            PrivateCopies.execute(c, "EXECUTE cached_failed(3, '{}', '{}', '{}', '{}', '{}', '{}', 'relay')");
            insert(c, 20_000, "PUBLISHED", 0);
            insertTwoPerAggregate(c, BACKLOG);

            JsonNode claim = explain(c, "EXECUTE cached_claim('relay', 60000, " + BATCH + ")");
            assertThat(rows(claim)).isEqualTo(BATCH);
            assertThat(buffers(claim)).isLessThan(CLAIM_BUDGET);

            String leased;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT array_agg(id)::text FROM outbox_events WHERE locked_by = 'relay'")) {
                rs.next();
                leased = rs.getString(1);
            }
            PrivateCopies.execute(c, "SAVEPOINT marks");
            JsonNode published = explain(c, "EXECUTE cached_published('" + leased + "', 'relay')");
            assertThat(rows(published)).isEqualTo(BATCH);
            assertThat(buffers(published)).isLessThan(CLAIM_BUDGET);
            PrivateCopies.execute(c, "ROLLBACK TO SAVEPOINT marks");
            JsonNode failed = explain(c, "EXECUTE cached_failed(3, '" + leased + "', array_fill('nack'::text, ARRAY[" + BATCH
                    + "]), array_fill('refused'::text, ARRAY[" + BATCH + "]), array_fill(false, ARRAY[" + BATCH
                    + "]), array_fill(now(), ARRAY[" + BATCH + "]), '" + leased + "', 'relay')");
            assertThat(rows(failed)).isEqualTo(BATCH);
            assertThat(buffers(failed)).isLessThan(CLAIM_BUDGET);
        });
    }

    @Test
    void shouldNotClaimALaterEventOfAnAggregateWhoseEarlierEventIsUnpublished() throws SQLException {
        inPrivateCopy("ordering", c -> {
            PrivateCopies.execute(c, """
                    INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, status)
                    VALUES (gen_random_uuid(), 't', '00000000-0000-0000-0000-00000000000a', 'x', '{}', 'DEAD'),
                           (gen_random_uuid(), 't', '00000000-0000-0000-0000-00000000000a', 'x', '{}', 'PENDING'),
                           (gen_random_uuid(), 't', '00000000-0000-0000-0000-00000000000b', 'x', '{}', 'PENDING'),
                           (gen_random_uuid(), 't', '00000000-0000-0000-0000-00000000000b', 'x', '{}', 'PENDING'),
                           (gen_random_uuid(), 't', '00000000-0000-0000-0000-00000000000c', 'x', '{}', 'PUBLISHED'),
                           (gen_random_uuid(), 't', '00000000-0000-0000-0000-00000000000c', 'x', '{}', 'PENDING')
                    """);
            PrivateCopies.execute(c, OutboxDialect.PLAN);
            List<String> claimed = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(OutboxDialect.CLAIM)) {
                ps.setString(1, "relay");
                ps.setLong(2, 60_000);
                ps.setInt(3, BATCH);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        claimed.add(rs.getString(4) + "#" + rs.getLong(2));
                    }
                }
            }
            // a: behind a dead event; b: only its first; c: its earlier event is published
            assertThat(claimed).hasSize(2).allSatisfy(id -> assertThat(id).doesNotContain("-00000000000a#"));
            assertThat(claimed).anySatisfy(id -> assertThat(id).contains("-00000000000b#"))
                    .anySatisfy(id -> assertThat(id).contains("-00000000000c#"));
        });
    }

    /**
     * The background jobs and admin reads, with 10,000 and then 1,000,000 rows of published history (statistics
     * taken at the first size): their cost follows the backlog and the dead events, which stay the same.
     */
    @Test
    void shouldKeepTheBackgroundJobsFlatFromTenThousandToAMillionRowsOfHistory() throws SQLException {
        inPrivateCopy("history", c -> {
            insert(c, 10_000, "PUBLISHED", 1);
            insert(c, 500, "PENDING", 0);
            insert(c, 50, "DEAD", 0);
            PrivateCopies.execute(c,
                    "UPDATE outbox_events SET locked_by = 'gone', locked_until = now() - interval '1 minute' WHERE seq % 10 = 0 AND status = 'PENDING'");
            PrivateCopies.execute(c, "ANALYZE outbox_events");
            Map<String, Long> small = measureJobs(c);

            insert(c, 990_000, "PUBLISHED", 1);
            Map<String, Long> large = measureJobs(c);

            System.out.printf("OutboxPlanTest buffers per job, 10k vs 1M rows of history: %s vs %s%n", small, large);
            small.forEach((job, buffers) -> assertThat(large.get(job)).as(job + " at 1,000,000 rows (%d at 10,000)", buffers)
                    .isLessThanOrEqualTo(2 * buffers + 50));
        });
    }

    private Map<String, Long> measureJobs(Connection c) throws SQLException {
        Timestamp longAgo = Timestamp.from(Instant.parse("2000-01-01T00:00:00Z"));
        Map<String, Long> cost = new LinkedHashMap<>();
        cost.put("stats", buffers(explain(c, OutboxDialect.STATS)));
        cost.put("tenant stats", buffers(explain(c, OutboxDialect.TENANT_STATS, "plan-test", "plan-test", "plan-test")));
        cost.put("lease sweep", buffers(explain(c, OutboxDialect.SWEEP)));
        cost.put("cleanup", buffers(explain(c, OutboxDialect.DELETE_PUBLISHED, longAgo, 1000)));
        cost.put("dead list", buffers(explain(c, OutboxDialect.DEAD, "plan-test", 100)));
        PrivateCopies.execute(c, "SAVEPOINT requeue");
        cost.put("requeue batch",
                buffers(explain(c, OutboxDialect.REQUEUE_BATCH, "plan-test", 0L, null, null, null, null, null, null, 1000)));
        PrivateCopies.execute(c, "ROLLBACK TO SAVEPOINT requeue");
        return cost;
    }

    private void inPrivateCopy(String name, PrivateCopies.Work work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            // a million rows take longer than the service's socket timeout (10 s, for a partition), as the statement
            // timeout below allows: this connection waits as long, and goes back to the pool as it came
            int socketTimeout = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, 120_000);
            try {
                PrivateCopies.create(c, name, List.of("outbox_events"), Duration.ofSeconds(120));
                work.run(c);
            } finally {
                c.rollback();
                c.setNetworkTimeout(Runnable::run, socketTimeout);
            }
        }
    }

    /** Events of tenant plan-test, each of its own aggregate; published ones {@code ageDays} old. */
    private static void insert(Connection c, int count, String status, int ageDays) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, status, created_at, available_at,
                                           published_at)
                SELECT gen_random_uuid(), 'plan-test', gen_random_uuid(), 'dev.stockhold.reservation.created.v1', '{}', ?,
                       now() - ? * interval '1 day', now() - interval '1 second',
                       CASE WHEN ? = 'PUBLISHED' THEN now() - ? * interval '1 day' END
                  FROM generate_series(1, ?)
                """)) {
            ps.setString(1, status);
            ps.setInt(2, ageDays);
            ps.setString(3, status);
            ps.setInt(4, ageDays);
            ps.setInt(5, count);
            ps.executeUpdate();
        }
    }

    /** A backlog as reservations write it: two events per aggregate (created, then confirmed), in write order. */
    private static void insertTwoPerAggregate(Connection c, int count) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, created_at, available_at)
                SELECT gen_random_uuid(), 'plan-test', md5('plan-test-' || n)::uuid, 'dev.stockhold.reservation.created.v1', '{}',
                       now(), now() - interval '1 second'
                  FROM generate_series(1, ? / 2) n, generate_series(1, 2) k
                 ORDER BY n, k
                """)) {
            ps.setInt(1, count);
            ps.executeUpdate();
        }
    }

    /** Runs a statement under OutboxDialect.PLAN (it is rolled back with the rest) and returns its measured plan. */
    private JsonNode explain(Connection c, String sql, Object... args) throws SQLException {
        PrivateCopies.execute(c, OutboxDialect.PLAN);
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return mapper.readTree(rs.getString(1)).get(0);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static long rows(JsonNode explained) {
        return explained.path("Plan").path("Actual Rows").asLong();
    }

    /** Shared buffers hit or read by the whole statement, planning excluded. */
    private static long buffers(JsonNode explained) {
        JsonNode plan = explained.path("Plan");
        return plan.path("Shared Hit Blocks").asLong() + plan.path("Shared Read Blocks").asLong();
    }
}
