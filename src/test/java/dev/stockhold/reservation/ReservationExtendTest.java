package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.MovableClock;
import dev.stockhold.support.Race;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** POST /v1/reservations/{id}/extend: the new hold, the maximum hold, and extend racing expiry and confirm. */
@QuarkusTest
@StockedSku(100)
class ReservationExtendTest extends TenantFixture {

    /** The service's clock (moved by other tests): the time the service stamps reservations with. */
    @Inject
    java.time.Clock clock;

    private static final String EXTENDED = "dev.stockhold.reservation.extended.v1";

    @Inject
    ReservationExpiryJob expiry;

    @Test
    void shouldHoldUntilNowPlusTheNewTtlLongerOrShorterWithOneEventEach() {
        String id = reserve(600);

        Instant before = clock.instant();
        String longer = extend(id, 3_600).then().statusCode(200).body("status", equalTo("HELD")).extract().path("expiresAt");
        assertThat(Instant.parse(longer)).isBetween(before.plusSeconds(3_599), clock.instant().plusSeconds(3_601));
        String shorter = extend(id, 30).then().statusCode(200).extract().path("expiresAt");
        assertThat(Instant.parse(shorter)).isBefore(Instant.parse(longer));

        api.get(id).then().body("expiresAt", equalTo(shorter));
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1", EXTENDED, EXTENDED);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(99);
    }

    @Test
    void shouldRefuseToHoldPastTheMaximumHoldAndChangeNothing() {
        String id = reserve(600);
        String expiresAt = api.get(id).then().extract().path("expiresAt");

        // the maximum hold (24 h) counts from creation: a full day from now is past it
        extend(id, 86_400).then().statusCode(409).body("type", endsWith("/hold-limit-reached"));

        api.get(id).then().body("expiresAt", equalTo(expiresAt));
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1");
        extend(id, 86_000).then().statusCode(200);
    }

    @Test
    void shouldRefuseAReservationThatIsNotHeldOrAlreadyPastItsExpiry() {
        String confirmed = reserve(600);
        api.confirm(confirmed).then().statusCode(200);
        String cancelled = reserve(600);
        api.cancel(cancelled).then().statusCode(200);
        String lapsed = reserve(1);
        MovableClock.advance(Duration.ofMillis(1_100));

        for (String id : List.of(confirmed, cancelled, lapsed)) {
            extend(id, 600).then().statusCode(409).body("type", endsWith("/invalid-reservation-state"));
        }
        extend("00000000-0000-0000-0000-000000000000", 600).then().statusCode(404);
        Api.newTenant().request().contentType(ContentType.JSON).body("{\"ttlSeconds\":600}")
                .post("/v1/reservations/{id}/extend", confirmed).then().statusCode(404);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND event_type = ?", api.tenant(), EXTENDED))
                .isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "{\"ttlSeconds\":0}", "{\"ttlSeconds\":86401}", "{\"ttlSeconds\":\"600\"}", "{\"ttlSeconds\":1.5}", "{}",
            "{\"ttlSeconds\":600,\"extra\":1}" })
    void shouldRefuseABadBody(String body) {
        String id = reserve(600);
        api.request().contentType(ContentType.JSON).body(body).post("/v1/reservations/{id}/extend", id)
                .then().statusCode(400).body("type", endsWith("/validation-failed"));
        assertThat(db.eventTypes(id)).hasSize(1);
    }

    /** Extends against two expiry runs at the instant the holds lapse: each reservation ends one way, stock returned once. */
    @Test
    void shouldLetExactlyOneOfExtendAndExpiryWin() {
        int racers = 12;
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            ids.add(reserve(1));
        }
        MovableClock.advance(Duration.ofMillis(950));

        // the expiry runs move time past the holds' end while the extends are in flight
        List<Integer> statuses = Race.run(racers + 2, i -> {
            if (i >= racers) {
                MovableClock.advance(Duration.ofMillis(50));
                return expiry.expireDue();
            }
            return extend(ids.get(i), 600).statusCode();
        });
        MovableClock.advance(Duration.ofMillis(1_100));
        expiry.expireDue();

        long held = 0;
        for (int i = 0; i < racers; i++) {
            String status = db.status(ids.get(i));
            List<String> events = db.eventTypes(ids.get(i));
            if (statuses.get(i) == 200) {
                assertThat(status).isEqualTo("HELD");
                assertThat(events).containsExactly("dev.stockhold.reservation.created.v1", EXTENDED);
                held++;
            } else {
                assertThat(statuses.get(i)).isEqualTo(409);
                assertThat(status).isEqualTo("EXPIRED");
                assertThat(events).containsExactly("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.expired.v1");
            }
        }
        assertThat(db.available(api.tenant(), sku)).as("stock returned once per expired hold").isEqualTo(100 - held);
    }

    @Test
    void shouldOrderAnExtendRacingAConfirmBeforeItOrRefuseIt() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(reserve(600));
        }

        List<Integer> statuses = Race.run(16, i -> i % 2 == 0 ? api.confirm(ids.get(i / 2)).statusCode()
                : extend(ids.get(i / 2), 1_200).statusCode());

        for (int r = 0; r < ids.size(); r++) {
            assertThat(statuses.get(2 * r)).isEqualTo(200);
            List<String> events = db.eventTypes(ids.get(r));
            assertThat(events).containsExactlyElementsOf(statuses.get(2 * r + 1) == 200
                    ? List.of("dev.stockhold.reservation.created.v1", EXTENDED, "dev.stockhold.reservation.confirmed.v1")
                    : List.of("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.confirmed.v1"));
        }
        assertThat(db.available(api.tenant(), sku)).isEqualTo(92);
    }

    private String reserve(int ttlSeconds) {
        return api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"ttlSeconds\":" + ttlSeconds + "}")
                .then().statusCode(201).extract().path("id");
    }

    private Response extend(String id, int ttlSeconds) {
        return api.request().contentType(ContentType.JSON).body("{\"ttlSeconds\":" + ttlSeconds + "}")
                .post("/v1/reservations/{id}/extend", id);
    }
}
