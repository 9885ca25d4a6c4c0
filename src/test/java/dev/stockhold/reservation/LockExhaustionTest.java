package dev.stockhold.reservation;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Management;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A long transaction holds a hot stock row (an admin's bulk import, a stuck migration, a forgotten psql session):
 * reservations of that sku fail fast with 503 and Retry-After, bounded by the lock wait, store nothing, and succeed
 * once the row is free; readiness stays UP (the database is there), and other skus are served meanwhile.
 */
@QuarkusTest
class LockExhaustionTest extends TenantFixture {

    String hot;

    @BeforeEach
    void setUp() {
        hot = Api.sku();
        api.setStock(hot, 100);
    }

    @Test
    void shouldAnswer503FastWhileAnotherTransactionHoldsTheStockRowAndServeOnceItIsFree() throws Exception {
        String quiet = Api.sku();
        api.setStock(quiet, 100);
        List<String> keys = List.of(Api.key(), Api.key(), Api.key(), Api.key(), Api.key(), Api.key());
        long started;
        List<Response> refused;
        try (AutoCloseable held = db.holdStockRow(api.tenant(), hot)) {
            started = System.nanoTime();
            refused = Race.run(keys.size(), i -> api.reserve(keys.get(i), hot, 1));
            long waited = System.nanoTime() - started;

            // meanwhile: the database is reachable, so the replica stays ready, and a quiet sku is served
            Management.given().get("/q/health/ready").then().statusCode(200);
            api.reserve(Api.key(), quiet, 1).then().statusCode(201);

            assertThat(refused).allSatisfy(r -> {
                assertThat(r.statusCode()).isEqualTo(503);
                r.then().header("Retry-After", "1").body("type", endsWith("/service-unavailable"));
            });
            // bounded by the lock wait (2 s in tests; stockhold.idempotency.in-flight-wait), not by the holder
            assertThat(Duration.ofNanos(waited)).isLessThan(Duration.ofSeconds(10));
        }

        assertThat(db.available(api.tenant(), hot)).as("nothing was taken").isEqualTo(100);
        assertThat(db.reservationsOfTenant(api.tenant())).as("only the quiet sku's reservation").isEqualTo(1);
        // the same keys, retried once the row is free: each reserves exactly once
        for (String key : keys) {
            api.reserve(key, hot, 1).then().statusCode(201);
        }
        assertThat(db.available(api.tenant(), hot)).isEqualTo(100 - keys.size());
    }
}
