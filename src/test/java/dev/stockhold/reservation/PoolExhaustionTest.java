package dev.stockhold.reservation;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;

import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import dev.stockhold.support.Management;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * A pool drained by slow requests (each waiting for a row lock another session holds): a request that needs a
 * connection gets 503 with Retry-After after the acquisition timeout, not after the slow ones; liveness stays UP,
 * readiness answers at once; nobody is left waiting for a connection afterwards and the same key then succeeds.
 */
@QuarkusTest
@TestProfile(PoolExhaustionTest.SmallPool.class)
class PoolExhaustionTest {

    /** Three connections, a one-second acquisition timeout, and slow requests that wait 4 s for their lock. */
    public static class SmallPool implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quarkus.datasource.jdbc.max-size", "3",
                    "quarkus.datasource.jdbc.min-size", "0",
                    "quarkus.datasource.jdbc.acquisition-timeout", "1s",
                    "stockhold.idempotency.in-flight-wait", "4s",
                    "stockhold.relay.enabled", "false");
        }
    }

    private static final int POOL = 3;

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    String user;

    @Test
    void shouldAnswer503AfterTheAcquisitionTimeoutWhileSlowRequestsHoldEveryConnection() throws Exception {
        Api api = Api.newTenant();
        List<String> slowSkus = new ArrayList<>();
        for (int i = 0; i < POOL; i++) {
            slowSkus.add(Api.sku());
            api.setStock(slowSkus.get(i), 10);
        }
        String free = Api.sku();
        api.setStock(free, 10);
        String key = Api.key();

        List<AutoCloseable> holders = new ArrayList<>();
        try {
            for (String sku : slowSkus) { // sessions outside the pool: a bulk import holding the rows
                holders.add(Db.holdStockRow(DriverManager.getConnection(jdbcUrl, user, ""), api.tenant(), sku));
            }
            // one slow request per held row: each takes a connection from the pool and waits 4 s for its lock
            List<CompletableFuture<Response>> slow = slowSkus.stream()
                    .map(sku -> CompletableFuture.supplyAsync(() -> api.reserve(Api.key(), sku, 1))).toList();
            // each slow request holds a pool connection once its session waits for its row (seen from outside the pool)
            PGSimpleDataSource outside = new PGSimpleDataSource();
            outside.setURL(jdbcUrl);
            outside.setUser(user);
            new Db(outside).awaitLockWaiters(POOL, "");

            long started = System.nanoTime();
            Response refused = api.reserve(key, free, 1);
            Duration waited = Duration.ofNanos(System.nanoTime() - started);
            refused.then().statusCode(503).header("Retry-After", "1").body("type", endsWith("/service-unavailable"));
            // bounded by the acquisition timeout (1 s), well before the slow requests give up at 4 s
            assertThat(waited).isLessThan(Duration.ofMillis(2_500));

            long probe = System.nanoTime();
            Management.given().get("/q/health/live").then().statusCode(200);
            int readiness = Management.given().get("/q/health/ready").statusCode();
            assertThat(readiness).as("readiness answers, UP or DOWN, within the acquisition timeout").isIn(200, 503);
            assertThat(Duration.ofNanos(System.nanoTime() - probe)).isLessThan(Duration.ofMillis(2_500));

            for (CompletableFuture<Response> request : slow) {
                request.join().then().statusCode(503).header("Retry-After", "1");
            }
        } finally {
            for (AutoCloseable holder : holders) {
                holder.close();
            }
        }

        Db db = new Db(dataSource);
        assertThat(db.reservationsOfTenant(api.tenant())).as("nothing stored by the refused requests").isZero();
        // nothing piled up: nobody waits for a connection, readiness is UP, and the refused key now reserves
        assertThat(Management.given().get("/q/metrics").then().statusCode(200).extract().asString())
                .containsPattern("agroal_awaiting_count\\{datasource=\"default\"[^}]*\\} 0\\.0");
        Management.given().get("/q/health/ready").then().statusCode(200);
        api.reserve(key, free, 1).then().statusCode(201);
        assertThat(db.available(api.tenant(), free)).isEqualTo(9);
    }
}
