package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Db;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Management;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * A start warms the reservation path before it reports ready, and leaves nothing behind: while it runs, its readiness
 * check is DOWN and no other session sees a row of a warm-up tenant; when it ends, it has written reservations by both writers
 * (each checked written) and sent its own HTTP requests (each answered 200), readiness is UP, and no table holds a
 * row of such a tenant.
 */
@QuarkusTest
@TestProfile(ReservationWarmUpTest.Warming.class)
class ReservationWarmUpTest {

    /** Long enough that the test sees it running; the relay off so nothing else writes. */
    public static class Warming implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.reservations.warm-up", "5s");
        }
    }

    private static final List<String> TABLES = List.of("stock_records", "stock_items", "reservations", "idempotency_records",
            "outbox_events", "stock_movements", "event_sequences");

    @Inject
    @Readiness
    ReservationWarmUp warmUp;

    @Inject
    DataSource dataSource;

    @Test
    void shouldWarmTheReservationPathBeforeReadyAndLeaveNoRowBehind() throws Exception {
        // the check's own answer while it runs (an HTTP client's first request may take seconds to start on two busy cores)
        assertThat(warmUp.done()).as("the warm-up still runs when the test starts (5 s)").isFalse();
        assertThat(warmUp.call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);

        // each query on a pooled connection of its own: another session than the warm-up's
        Db db = new Db(dataSource);
        List<Long> seenWhileWarming = new ArrayList<>();
        while (!warmUp.done()) {
            seenWhileWarming.add(warmUpRows(db));
            Thread.sleep(200);
        }
        Eventually.await(Duration.ofSeconds(5), "readiness UP after the warm-up",
                () -> Management.given().get("/q/health/ready").statusCode() == 200);
        assertThat(warmUpRows(db)).as("rows of a warm-up tenant after it ended").isZero();
        assertThat(seenWhileWarming).as("rows of a warm-up tenant another session saw while it ran").isNotEmpty().containsOnly(0L);
        // every reservation counted was written (the warm-up stops at one that is not), a quarter by the transactional writer
        assertThat(warmUp.reservations()).isGreaterThan(4L * ReservationWarmUp.CONNECTIONS);
        // and its own HTTP requests, each answered 200 (the warm-up stops at one that is not)
        assertThat(warmUp.requests()).isPositive();
        Map<String, Object> up = check(Management.given().get("/q/health/ready"));
        assertThat(up).containsEntry("status", "UP");
        assertThat(((Map<?, ?>) up.get("data")).get("reservations")).isEqualTo((int) warmUp.reservations());
        assertThat(((Map<?, ?>) up.get("data")).get("requests")).isEqualTo((int) warmUp.requests());
    }

    private static long warmUpRows(Db db) {
        return TABLES.stream().mapToLong(table -> db.queryLong("SELECT count(*) FROM " + table + " WHERE tenant_id LIKE ?",
                ReservationWarmUp.TENANT_PREFIX + "%")).sum();
    }

    private static Map<String, Object> check(Response ready) {
        List<Map<String, Object>> checks = JsonPath.from(ready.asString()).getList("checks");
        return checks.stream().filter(c -> "reservation-warm-up".equals(c.get("name"))).findFirst().orElseThrow();
    }
}
