package dev.stockhold.outbox;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.BrokerFixture;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Management;
import dev.stockhold.support.StockedSku;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * I6 across an outage longer than the whole retry schedule: the broker stays stopped while events are written and the
 * paused relay fails more probes than an event has attempts (three, 10-50 ms apart), so a relay that charged the
 * outage to the events would have buried them. No event may be charged an attempt for the outage, none may be DEAD,
 * and all must arrive in per-reservation order once the broker is back. And a relay that meets the stopped broker in
 * the middle of its work gives back the events it holds at once, instead of keeping them leased for a lease, and so
 * does a paused relay with an event handed over to it after the pause began.
 */
@QuarkusTest
@StockedSku(1000)
@TestProfile(ShortRetryScheduleProfile.class)
class RelayOutageTest extends BrokerFixture {

    @Inject
    RelaySignal signal;

    @Test
    void shouldChargeNoAttemptForAnOutageLongerThanTheRetryScheduleAndDeliverEverythingInOrderAfterIt() throws Exception {
        List<String> before = reserve(5);
        // at least once: a publish confirmed late may arrive twice, so the five are counted by their ids
        Eventually.await(Duration.ofSeconds(30), "events before the outage", () -> delivered() == 5);

        List<String> during = new ArrayList<>();
        double failedProbes = Management.metric(ShortRetryScheduleProfile.PROBES, ShortRetryScheduleProfile.FAILED);
        OutboxRelayTest.rabbitmqctl("stop_app");
        try {
            // events are written between the paused relay's failed probes, more of them than an event has attempts:
            // a relay that charged an attempt per try would have buried the first events
            for (int probe = 1; probe <= ShortRetryScheduleProfile.MAX_ATTEMPTS + 1; probe++) {
                List<String> ids = reserve(5);
                api.confirm(ids.get(0)).then().statusCode(200);
                api.cancel(ids.get(1)).then().statusCode(200);
                during.addAll(ids);
                double seen = failedProbes + probe;
                Eventually.await(Duration.ofSeconds(10), "failed probe " + probe + " of the stopped broker",
                        () -> Management.metric(ShortRetryScheduleProfile.PROBES, ShortRetryScheduleProfile.FAILED) >= seen);
            }
            Management.given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                    .body("checks.find { it.name == 'outbox-relay' }.data.broker", equalTo("unreachable"))
                    .body("checks.find { it.name == 'outbox-relay' }.data.brokerUnreachableSince", notNullValue());
            assertThat(Management.given().get("/q/metrics").asString()).containsPattern("stockhold_outbox_broker_reachable\\{[^}]*\\} 0")
                    .containsPattern("stockhold_outbox_broker_unreachable_since_seconds\\{[^}]*\\} 1\\.[0-9]+E9");
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND (status = 'DEAD' OR attempts > 0)",
                    api.tenant())).as("events charged for the outage").isZero();
        } finally {
            OutboxRelayTest.rabbitmqctl("start_app");
        }
        OutboxRelayTest.rabbitmqctl("await_startup");
        long back = System.nanoTime();
        broker.consume();

        long expected = 5 + during.size() + 2L * during.size() / 5;
        Eventually.await(Duration.ofSeconds(30), "every event after the outage",
                () -> delivered() == expected);
        System.out.printf("RelayOutageTest: %d events written during the outage delivered %d ms after the broker was back%n",
                expected - 5, (System.nanoTime() - back) / 1_000_000);

        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'DEAD'", api.tenant())).isZero();
        Map<String, List<String>> perReservation = new LinkedHashMap<>();
        broker.of(api.tenant()).forEach(d -> perReservation.computeIfAbsent(d.subject(), s -> new ArrayList<>()).add(d.routingKey()));
        for (int i = 0; i < during.size(); i++) {
            List<String> order = perReservation.get(during.get(i)).stream().distinct().toList();
            assertThat(order).as("events of %s in write order", during.get(i)).containsExactlyElementsOf(switch (i % 5) {
                case 0 -> List.of("reservation.created", "reservation.confirmed");
                case 1 -> List.of("reservation.created", "reservation.cancelled");
                default -> List.of("reservation.created");
            });
        }
        assertThat(before).allSatisfy(id -> assertThat(perReservation).containsKey(id));
        Eventually.await(Duration.ofSeconds(5), "the broker reported reachable again",
                () -> "reachable".equals(Management.given().get("/q/health/ready").jsonPath()
                        .getString("checks.find { it.name == 'outbox-relay' }.data.broker")));
    }

    @Test
    void shouldGiveBackTheEventsItHoldsAtOnceWhenTheBrokerStopsMidBatch() throws Exception {
        List<String> ids = new ArrayList<>(reserve(2));
        Eventually.await(Duration.ofSeconds(30), "events before the outage", () -> delivered() == 2);
        Duration lease = ConfigProvider.getConfig().getValue("stockhold.relay.lease", Duration.class);
        // reservations go on while the broker stops, so the relay holds events (handed off or claimed) when it goes
        AtomicBoolean stopped = new AtomicBoolean();
        CompletableFuture<List<String>> during = CompletableFuture.supplyAsync(() -> {
            List<String> written = new ArrayList<>();
            for (int after = 0; after < 10; after += stopped.get() ? 1 : 0) {
                written.addAll(reserve(1));
            }
            return written;
        });
        // the tenant's claims watched from before the stop until a lease after the last write: a claim kept until its
        // lease ran out is seen at the lease's age
        ClaimAges claims = ClaimAges.watch(db, api.tenant(), lease);
        long oldestClaim;
        try {
            OutboxRelayTest.rabbitmqctl("stop_app");
            stopped.set(true);
            ids.addAll(during.get(60, TimeUnit.SECONDS));
            Thread.sleep(lease.toMillis() + 1000);
            oldestClaim = claims.oldest();
        } finally {
            claims.stop();
            OutboxRelayTest.rabbitmqctl("start_app");
        }
        OutboxRelayTest.rabbitmqctl("await_startup");
        long back = System.nanoTime();
        broker.consume();
        Eventually.await(Duration.ofSeconds(30), "every event after the outage", () -> delivered() == ids.size());
        long publishedAfterMs = (System.nanoTime() - back) / 1_000_000;
        System.out.printf("RelayOutageTest: %d events around the stop; the oldest claim during the outage was %d ms (lease %d ms);"
                + " all published %d ms after the broker was back%n", ids.size(), oldestClaim, lease.toMillis(), publishedAfterMs);

        assertThat(oldestClaim).as("ms the relay held an event it could not publish").isLessThan(lease.toMillis() / 2);
        assertThat(publishedAfterMs).as("ms from the broker's return to the last event published").isLessThan(lease.toMillis());
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'DEAD'", api.tenant())).isZero();
    }

    /**
     * The late writer: one that read the lease holder just before the relay paused writes its row leased to the relay
     * and hands the event over after the pause began (reproduced here by leasing a row written during the pause and
     * handing it over as that writer would). The paused relay gives it back within its next 100 ms, instead of holding
     * it for the lease; without the give-back during the pause it stays leased until the lease runs out.
     */
    @Test
    void shouldGiveBackAnEventHandedOverAfterThePauseBegan() throws Exception {
        Eventually.await(Duration.ofSeconds(10), "the relay taking hand-offs", () -> signal.leaseHolder().isPresent());
        String relay = signal.leaseHolder().orElseThrow();
        Duration lease = ConfigProvider.getConfig().getValue("stockhold.relay.lease", Duration.class);
        List<String> ids = new ArrayList<>();
        long heldMs;
        try {
            OutboxRelayTest.rabbitmqctl("stop_app");
            ids.addAll(reserve(1));
            Eventually.await(Duration.ofSeconds(20), "the relay paused", () -> signal.leaseHolder().isEmpty());
            String late = reserve(1).get(0);
            ids.add(late);
            String row = db.queryStrings("SELECT id::text FROM outbox_events WHERE aggregate_id = ?::uuid", late).get(0);
            db.execute("UPDATE outbox_events SET locked_by = ?, locked_until = now() + ?::interval WHERE id = ?::uuid", relay,
                    lease.toMillis() + " milliseconds", row);
            long handed = System.nanoTime();
            signal.hand(relay, new ClaimedRow(UUID.fromString(row), db.queryLong("SELECT seq FROM outbox_events WHERE id = ?::uuid", row),
                    api.tenant(), UUID.fromString(late),
                    db.queryStrings("SELECT event_type FROM outbox_events WHERE id = ?::uuid", row).get(0),
                    db.queryStrings("SELECT payload FROM outbox_events WHERE id = ?::uuid", row).get(0), 0, Instant.now(), null, late),
                    handed);
            Eventually.await(lease.multipliedBy(3), "the late hand-off given back",
                    () -> db.queryLong("SELECT count(*) FROM outbox_events WHERE id = ?::uuid AND locked_by IS NOT NULL", row) == 0);
            heldMs = (System.nanoTime() - handed) / 1_000_000;
        } finally {
            OutboxRelayTest.rabbitmqctl("start_app");
        }
        OutboxRelayTest.rabbitmqctl("await_startup");
        broker.consume();
        Eventually.await(Duration.ofSeconds(30), "both events after the outage", () -> delivered() == ids.size());
        System.out.printf("RelayOutageTest: an event handed over during the pause was given back after %d ms (lease %d ms)%n",
                heldMs, lease.toMillis());
        assertThat(heldMs).as("ms the paused relay held a late hand-off").isLessThan(lease.toMillis() / 2);
    }

    private List<String> reserve(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id"));
        }
        return ids;
    }

    private long delivered() {
        return broker.of(api.tenant()).stream().map(BrokerQueue.Delivery::messageId).distinct().count();
    }
}
