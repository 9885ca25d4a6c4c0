package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/** A tenant at its concurrency limit gets 429 at once; another tenant is served as usual. */
@QuarkusTest
@TestProfile(TenantLimitTest.LimitOfTwo.class)
class TenantLimitTest {

    /** Two requests in progress per tenant; duplicates wait long enough to hold their permits through the test. */
    public static class LimitOfTwo implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.limits.per-tenant-concurrency", "2", "stockhold.idempotency.in-flight-wait", "10s",
                    "stockhold.relay.enabled", "false");
        }
    }

    @Inject
    DataSource dataSource;

    @Test
    void shouldRefuseTheFloodingTenantAndServeTheOther() throws Exception {
        Db db = new Db(dataSource);
        Api flooding = Api.newTenant();
        Api other = Api.newTenant();
        flooding.setStock("F-1", 10);
        other.setStock("O-1", 10);
        String key = Api.key();

        try (Connection original = dataSource.getConnection()) {
            // an in-flight original holds the key: two duplicates wait for it, each holding one of the tenant's permits
            original.setAutoCommit(false);
            try (PreparedStatement ps = original.prepareStatement("""
                    INSERT INTO idempotency_records (tenant_id, idempotency_key, fingerprint, status_code, response_body)
                    VALUES (?, ?, '\\x00'::bytea, 201, '{}')""")) {
                ps.setString(1, flooding.tenant());
                ps.setString(2, key);
                ps.executeUpdate();
            }
            List<CompletableFuture<Response>> waiting = List.of(
                    CompletableFuture.supplyAsync(() -> flooding.reserve(key, "F-1", 1)),
                    CompletableFuture.supplyAsync(() -> flooding.reserve(key, "F-1", 1)));
            db.awaitLockWaiters(2, "INSERT INTO idempotency_records");

            flooding.reserve(Api.key(), "F-1", 1).then().statusCode(429)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1")
                    .body("type", equalTo("/problems/too-many-requests"));
            other.reserve(Api.key(), "O-1", 1).then().statusCode(201);

            original.rollback();
            original.setAutoCommit(true);
            for (CompletableFuture<Response> w : waiting) {
                assertThat(w.get(15, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
            }
        }
        assertThat(db.available(flooding.tenant(), "F-1")).isEqualTo(9);
        flooding.reserve(Api.key(), "F-1", 1).then().statusCode(201);
    }

}
