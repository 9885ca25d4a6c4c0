package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.MovableClock;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

@QuarkusTest
@StockedSku(10)
class ReservationApiTest extends TenantFixture {

    @Inject
    ReservationExpiryJob expiry;

    @Test
    void shouldReserveAndAnswerCreatedWithLocationAndBody() {
        Response created = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":3}],\"ttlSeconds\":600}");

        created.then().statusCode(201)
                .contentType("application/json")
                .header("Idempotent-Replayed", nullValue())
                .body("status", equalTo("HELD"))
                .body("lines[0].sku", equalTo(sku))
                .body("lines[0].quantity", equalTo(3));
        String id = created.path("id");
        assertThat(created.header("Location")).isEqualTo("/v1/reservations/" + id);
        assertThat(java.time.Duration.between(java.time.Instant.parse(created.path("createdAt")),
                java.time.Instant.parse(created.path("expiresAt")))).hasSeconds(600);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(7);
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1");
        api.get(id).then().statusCode(200).body("id", equalTo(id)).body("status", equalTo("HELD"));
    }

    @Test
    void shouldReplayTheStoredResponseForTheSameKeyAndBodyInAnyOrder() {
        String key = Api.key();
        String other = Api.sku();
        api.setStock(other, 5);
        Response first = api.reserve(key,
                "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"" + other + "\",\"quantity\":2}]}");
        first.then().statusCode(201);

        // other key order, other line order, other whitespace: the same intent
        Response replay = api.reserve(key,
                "{ \"lines\" : [ {\"quantity\":2, \"sku\":\"" + other + "\"},\n {\"sku\":\"" + sku + "\",\"quantity\":1} ] }");

        replay.then().statusCode(201).header("Idempotent-Replayed", "true").header("Location", first.header("Location"));
        assertThat(replay.asString()).isEqualTo(first.asString());
        assertThat(db.available(api.tenant(), sku)).isEqualTo(9);
        assertThat(db.available(api.tenant(), other)).isEqualTo(3);
        assertThat(db.reservationsWithKey(api.tenant(), key)).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(1);
    }

    @Test
    void shouldReplayTheOriginalResponseEvenAfterTheReservationChanged() {
        String key = Api.key();
        Response first = api.reserve(key, sku, 2);
        api.cancel(first.path("id")).then().statusCode(200);

        api.reserve(key, sku, 2).then().statusCode(201).header("Idempotent-Replayed", "true").body("status", equalTo("HELD"));
        api.get(first.path("id")).then().body("status", equalTo("CANCELLED"));
    }

    @Test
    void shouldRefuseTheSameKeyWithAnotherPayloadAndChangeNothing() {
        String key = Api.key();
        api.reserve(key, sku, 2).then().statusCode(201);

        api.reserve(key, sku, 3).then().statusCode(422)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/idempotency-key-reused"));
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":2}],\"ttlSeconds\":60}").then().statusCode(422);

        assertThat(db.available(api.tenant(), sku)).isEqualTo(8);
        assertThat(db.reservationsWithKey(api.tenant(), key)).isEqualTo(1);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(1);
    }

    @Test
    void shouldRefuseAShortLineAndStoreTheRefusalForRetries() {
        String key = Api.key();
        api.reserve(key, sku, 11).then().statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/insufficient-stock"))
                .body("skus[0]", equalTo(sku));
        // stock arrives, but the key already has its outcome: a retry learns what happened, it does not re-execute
        api.setStock(sku, 100);
        api.reserve(key, sku, 11).then().statusCode(409).header("Idempotent-Replayed", "true");

        assertThat(db.available(api.tenant(), sku)).isEqualTo(100);
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(db.outboxEventsOfTenant(api.tenant())).isZero();
        assertThat(db.idempotencyRecords(api.tenant(), key)).isEqualTo(1);
    }

    @Test
    void shouldRefuseAnUnknownSkuWithoutTouchingTheOtherLines() {
        String key = Api.key();
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"NOPE-" + sku + "\",\"quantity\":1}]}")
                .then().statusCode(422)
                .body("type", equalTo("/problems/unknown-sku"))
                .body("skus[0]", equalTo("NOPE-" + sku));

        assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        api.reserve(key, "{\"lines\":[{\"sku\":\"NOPE-" + sku + "\",\"quantity\":1},{\"sku\":\"" + sku + "\",\"quantity\":1}]}")
                .then().statusCode(422).header("Idempotent-Replayed", "true");
    }

    @Test
    void shouldBeAllOrNothingAcrossLines() {
        String plenty = Api.sku();
        api.setStock(plenty, 50);

        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + plenty + "\",\"quantity\":5},{\"sku\":\"" + sku + "\",\"quantity\":11}]}")
                .then().statusCode(409).body("skus", org.hamcrest.Matchers.contains(sku));

        assertThat(db.available(api.tenant(), plenty)).isEqualTo(50);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(db.outboxEventsOfTenant(api.tenant())).isZero();
    }

    @Test
    void shouldConfirmOnceAndAnswerRepeatedConfirmsWithoutANewEvent() {
        String id = api.reserve(Api.key(), sku, 4).path("id");

        api.confirm(id).then().statusCode(200).body("status", equalTo("CONFIRMED"));
        api.confirm(id).then().statusCode(200).body("status", equalTo("CONFIRMED"));
        api.cancel(id).then().statusCode(409).body("type", equalTo("/problems/invalid-reservation-state"));

        assertThat(db.available(api.tenant(), sku)).isEqualTo(6);
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1",
                "dev.stockhold.reservation.confirmed.v1");
    }

    @Test
    void shouldCancelOnceReturningStockExactlyOnce() {
        String id = api.reserve(Api.key(), sku, 4).path("id");

        api.cancel(id).then().statusCode(200).body("status", equalTo("CANCELLED"));
        api.cancel(id).then().statusCode(200).body("status", equalTo("CANCELLED"));
        api.confirm(id).then().statusCode(409);

        assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1",
                "dev.stockhold.reservation.cancelled.v1");
    }

    @Test
    void shouldRefuseConfirmAfterExpiryEvenBeforeTheJobRanAndThenExpire() {
        String id = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":4}],\"ttlSeconds\":1}").path("id");
        MovableClock.advance(Duration.ofMillis(1_100));

        api.confirm(id).then().statusCode(409).body("type", equalTo("/problems/invalid-reservation-state"));
        expiry.expireDue();

        api.get(id).then().body("status", equalTo("EXPIRED"));
        api.cancel(id).then().statusCode(409);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1",
                "dev.stockhold.reservation.expired.v1");
    }

    @Test
    void shouldAnswerNotFoundForUnknownAndMalformedIds() {
        api.get(java.util.UUID.randomUUID().toString()).then().statusCode(404)
                .body("type", equalTo("/problems/reservation-not-found"));
        api.get("not-a-uuid").then().statusCode(404)
                .body("type", equalTo("/problems/reservation-not-found"));
        api.confirm("not-a-uuid").then().statusCode(404);
    }
}
