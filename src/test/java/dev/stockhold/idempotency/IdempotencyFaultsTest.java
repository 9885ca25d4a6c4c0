package dev.stockhold.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.reservation.ReservationRequest;
import dev.stockhold.support.Api;
import dev.stockhold.support.FaultInjection;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.config.HttpClientConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** Retries after lost responses, duplicates of requests still in flight, and retention of keys. */
@QuarkusTest
@StockedSku(10)
class IdempotencyFaultsTest extends TenantFixture {

    @Inject
    IdempotencyPurgeJob purge;

    @Test
    void shouldReplayTheCommittedOutcomeWhenTheFirstResponseWasLost() {
        String key = Api.key();
        String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":4}]}";

        RestAssuredConfig impatient = RestAssuredConfig.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", FaultInjection.HOLD_MILLIS / 3));
        assertThatThrownBy(() -> api.request().config(impatient).contentType(ContentType.JSON).header("Idempotency-Key", key)
                .header(FaultInjection.HEADER, FaultInjection.HOLD_RESPONSE_AFTER_COMMIT)
                .body(body).post("/v1/reservations")).as("the client never sees a response").isInstanceOf(SocketTimeoutException.class);
        assertThat(db.available(api.tenant(), sku)).as("the reservation committed").isEqualTo(6);

        Response retry = api.reserve(key, body);

        retry.then().statusCode(201).header("Idempotent-Replayed", "true").body("status", equalTo("HELD"));
        assertThat(db.available(api.tenant(), sku)).as("decremented once").isEqualTo(6);
        assertThat(db.reservationsWithKey(api.tenant(), key)).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(1);
        api.get(retry.path("id")).then().statusCode(200);
    }

    @Test
    void shouldWaitForAnInFlightOriginalAndReplayItsOutcome() throws Exception {
        String key = Api.key();
        ReservationRequest request = new ReservationRequest(List.of(new ReservationRequest.Line(sku, 2, null)), null, null, null, null,
                null, null, null);
        String storedBody = "{\"stored\":\"by the original\"}";

        try (Connection original = dataSource.getConnection()) {
            original.setAutoCommit(false);
            insertKey(original, key, request.fingerprint(), storedBody);
            CompletableFuture<Response> duplicate = CompletableFuture.supplyAsync(() -> api.reserve(key, sku, 2));
            db.awaitLockWaiters(1, "INSERT INTO idempotency_records");

            original.commit();
            original.setAutoCommit(true);

            Response replay = duplicate.get(10, TimeUnit.SECONDS);
            replay.then().statusCode(201).header("Idempotent-Replayed", "true").header("Location", "/v1/reservations/x");
            assertThat(replay.asString()).isEqualTo(storedBody);
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
    }

    @Test
    void shouldAnswerInProgressWithRetryAfterWhenTheOriginalOutlastsTheWait() throws Exception {
        String key = Api.key();
        ReservationRequest request = new ReservationRequest(List.of(new ReservationRequest.Line(sku, 2, null)), null, null, null, null,
                null, null, null);

        try (Connection original = dataSource.getConnection()) {
            original.setAutoCommit(false);
            insertKey(original, key, request.fingerprint(), "{}");

            // stockhold.idempotency.in-flight-wait is 2s in the test profile; the original holds the key longer
            Response duplicate = api.reserve(key, sku, 2);

            duplicate.then().statusCode(409)
                    .contentType("application/problem+json")
                    .header("Retry-After", "1")
                    .body("type", equalTo("/problems/idempotency-request-in-progress"));
            original.rollback();
            original.setAutoCommit(true);
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        // the original died: the key is free and the retry executes
        api.reserve(key, sku, 2).then().statusCode(201).header("Idempotent-Replayed", (String) null);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(8);
    }

    @Test
    void shouldForgetKeysPastTheRetentionSoTheyBecomeNewIntents() {
        String old = Api.key();
        String recent = Api.key();
        api.reserve(old, sku, 1).then().statusCode(201);
        api.reserve(recent, sku, 1).then().statusCode(201);
        db.execute("UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE tenant_id = ? AND idempotency_key = ?",
                api.tenant(), old);

        int purged = purge.purgeOlderThan(Instant.now().minus(Duration.ofHours(24)));

        assertThat(purged).isGreaterThanOrEqualTo(1);
        assertThat(db.idempotencyRecords(api.tenant(), old)).isZero();
        assertThat(db.idempotencyRecords(api.tenant(), recent)).isEqualTo(1);
        api.reserve(old, sku, 1).then().statusCode(201).header("Idempotent-Replayed", (String) null);
        api.reserve(recent, sku, 1).then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(db.available(api.tenant(), sku)).isEqualTo(7);
    }

    private void insertKey(Connection c, String key, Fingerprint fingerprint, String body) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO idempotency_records (tenant_id, idempotency_key, fingerprint, status_code, response_body, location)
                VALUES (?, ?, ?, 201, ?, '/v1/reservations/x')
                """)) {
            ps.setString(1, api.tenant());
            ps.setString(2, key);
            ps.setBytes(3, fingerprint.sha256());
            ps.setString(4, body);
            ps.executeUpdate();
        }
    }

}
