package dev.stockhold.outbox;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.Api;
import dev.stockhold.support.BrokerFixture;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.DeduplicatingConsumer;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Management;
import dev.stockhold.support.Race;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** Relays played by the test: crashes, several replicas, poison events. Real PostgreSQL, real RabbitMQ. */
@QuarkusTest
@TestProfile(ManualRelayProfile.class)
class OutboxRelayMechanicsTest extends BrokerFixture {

    @Inject
    OutboxRelay relay;

    @Inject
    RelayStore store;

    @Inject
    EventPublisher publisher;

    @Inject
    RelaySignal signal;

    @Test
    void shouldRepublishWithTheSameIdWhenTheRelayDiedAfterTheConfirm() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        String id = api.reserve(Api.key(), sku, 1).path("id");

        // a relay claims, the broker confirms, and the relay dies before marking the row
        List<ClaimedRow> claimed = store.claim("dying-relay", 1000, Duration.ofSeconds(2));
        assertThat(claimed).extracting(ClaimedRow::aggregateId).contains(UUID.fromString(id));
        assertThat(publisher.publish(claimed, Duration.ofSeconds(5))).isEqualTo(PublishOutcome.Answered.allConfirmed());
        Eventually.await(Duration.ofSeconds(5), "first delivery", () -> broker.of(api.tenant()).size() == 1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PENDING'", id)).isEqualTo(1);

        // its lease runs out; a healthy relay takes the row over
        assertThat(relay.drain("healthy-relay", publisher).claimed()).as("leased rows are not claimable yet").isZero();
        db.expireOutboxLeases(api.tenant());
        assertThat(relay.drain("healthy-relay", publisher).confirmed()).as("the row whose lease ran out").isGreaterThanOrEqualTo(1);
        Eventually.await(Duration.ofSeconds(10), "re-publication", () -> broker.of(api.tenant()).size() == 2);

        List<BrokerQueue.Delivery> deliveries = broker.of(api.tenant());
        assertThat(deliveries.get(0).messageId()).isEqualTo(deliveries.get(1).messageId());
        DeduplicatingConsumer consumer = new DeduplicatingConsumer();
        deliveries.forEach(consumer::apply);
        assertThat(consumer.applied()).isEqualTo(1);
        assertThat(consumer.duplicates()).isEqualTo(1);
        assertThat(db.eventTypes(id)).hasSize(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'", id))
                .isEqualTo(1);
    }

    /**
     * While a relay takes this replica's hand-offs, a new reservation's created event is written leased to it (for the
     * configured lease, as a claim would lease it) and handed over in memory: that relay publishes it, the message
     * carrying the row's own id, payload and sequence, without a claim having leased it. With no relay taking hand-offs
     * the row is written unleased, for any relay's claim.
     */
    @Test
    void shouldWriteANewReservationsEventLeasedToTheRelayThatTakesHandOffs() throws Exception {
        while (relay.drain("draining-relay", publisher).claimed() > 0) {
            // events other tests of this profile left pending
        }
        String sku = Api.sku();
        api.setStock(sku, 5);
        relay.drain("draining-relay", publisher);
        signal.open("handing-relay", Duration.ofSeconds(30));
        String handed;
        try {
            handed = api.reserve(Api.key(), sku, 1).path("id");
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PENDING' "
                    + "AND locked_by = 'handing-relay' AND locked_until = created_at + interval '2 seconds'", handed))
                    .as("the created event, leased at its write to the relay that takes hand-offs").isEqualTo(1);
            assertThat(relay.drain("handing-relay", publisher).confirmed()).as("the hand-off, published").isEqualTo(1);
        } finally {
            signal.close();
        }
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED' "
                + "AND locked_by IS NULL", handed)).isEqualTo(1);
        Eventually.await(Duration.ofSeconds(10), "the delivery", () -> broker.of(api.tenant()).stream()
                .anyMatch(d -> d.subject().equals(handed)));
        BrokerQueue.Delivery delivery = broker.of(api.tenant()).stream().filter(d -> d.subject().equals(handed)).findFirst().orElseThrow();
        assertThat(delivery.messageId()).isEqualTo(db.queryStrings("SELECT id::text FROM outbox_events WHERE aggregate_id = ?::uuid",
                handed).get(0));
        assertThat(delivery.event()).as("the row's payload").isEqualTo(new ObjectMapper().readTree(
                db.queryStrings("SELECT payload FROM outbox_events WHERE aggregate_id = ?::uuid", handed).get(0)));
        assertThat(delivery.sequence()).isEqualTo(1);

        String claimed = api.reserve(Api.key(), sku, 1).path("id");
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PENDING' "
                + "AND locked_by IS NULL", claimed)).as("no relay takes hand-offs: written unleased").isEqualTo(1);
        assertThat(relay.drain("handing-relay", publisher).confirmed()).as("claimed by a relay").isGreaterThanOrEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'", claimed))
                .isEqualTo(1);
    }

    /**
     * A hand-off that waited longer than its maximum age might outlive its lease before its batch is marked: the relay
     * gives the lease back and claims the row like any other, so it is published once, not left leased.
     */
    @Test
    void shouldGiveAStaleHandOffsLeaseBackAndClaimIt() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        relay.drain("draining-relay", publisher);
        signal.open("stale-relay", Duration.ZERO);
        String id;
        try {
            id = api.reserve(Api.key(), sku, 1).path("id");
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND locked_by = 'stale-relay'", id))
                    .isEqualTo(1);
            relay.drain("stale-relay", publisher);
        } finally {
            signal.close();
        }
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'", id))
                .as("released and claimed in the same drain, not left leased for the lease").isEqualTo(1);
    }

    /**
     * The worker lets confirms gather for the mark delay, so one statement marks several publishes. Until then the
     * confirmed rows stay leased to it (no other relay publishes them again) and count as unpublished: a later event of
     * the same reservation is not claimable by anyone. Before it claims, the relay marks what it holds, so its claim
     * finds that later event and publishes it after the first. Without the mark before the claim, the confirm event
     * would wait for the delay (here an hour).
     */
    @Test
    void shouldMarkConfirmsTogetherAndBeforeItsNextClaim() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        while (relay.drain("draining-relay", publisher).claimed() > 0) {
            // events other tests of this profile left pending, and this test's stock event
        }
        Unmarked unmarked = relay.unmarked("deferring-relay", Duration.ofHours(1));
        signal.open("deferring-relay", Duration.ofSeconds(30));
        String first;
        String second;
        try {
            first = api.reserve(Api.key(), sku, 1).path("id");
            second = api.reserve(Api.key(), sku, 1).path("id");
            assertThat(relay.drain(unmarked, publisher).confirmed()).as("both hand-offs, published").isEqualTo(2);
            assertThat(unmarked.size()).as("confirmed, not yet marked").isEqualTo(2);
            outlastTheTest("deferring-relay");
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id IN (?::uuid, ?::uuid) "
                    + "AND status = 'PENDING' AND locked_by = 'deferring-relay'", first, second))
                    .as("still leased to the relay that holds their confirms").isEqualTo(2);

            api.confirm(first).then().statusCode(200);
            relay.drain("other-relay", publisher);
            assertThat(db.queryStrings("SELECT status || '/' || coalesce(locked_by, '-') FROM outbox_events "
                    + "WHERE aggregate_id = ?::uuid ORDER BY seq", first))
                    .as("another relay publishes neither the created event again nor the confirm behind it")
                    .containsExactly("PENDING/deferring-relay", "PENDING/-");

            assertThat(relay.drain(unmarked, publisher).confirmed()).as("the confirm event, claimed").isEqualTo(1);
            outlastTheTest("deferring-relay");
        } finally {
            signal.close();
        }
        assertThat(db.queryStrings("SELECT status || '/' || coalesce(locked_by, '-') FROM outbox_events "
                + "WHERE aggregate_id IN (?::uuid, ?::uuid) ORDER BY aggregate_id = ?::uuid, seq", second, first, first))
                .as("the created events marked before the claim; the confirm, held").containsExactly("PUBLISHED/-",
                        "PUBLISHED/-", "PENDING/deferring-relay");
        unmarked.flush();
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'", first))
                .isEqualTo(2);
        Eventually.await(Duration.ofSeconds(10), "three events delivered", () -> broker.of(api.tenant()).stream()
                .filter(d -> d.subject().equals(first) || d.subject().equals(second)).count() == 3);
        assertThat(broker.of(api.tenant()).stream().filter(d -> d.subject().equals(first)).map(BrokerQueue.Delivery::type))
                .as("each once, in write order").containsExactly("dev.stockhold.reservation.created.v1",
                        "dev.stockhold.reservation.confirmed.v1");
    }

    /** This profile's leases last 2 s: lengthened, so that a slow machine cannot let them run out mid-test. */
    private void outlastTheTest(String relay) {
        db.execute("UPDATE outbox_events SET locked_until = now() + interval '1 hour' WHERE locked_by = ? AND status = 'PENDING'",
                relay);
    }

    /**
     * A batch short of the batch size took everything claimable: while the broker confirms it, the relay claims no
     * next batch (at low rates that claim came back empty, a transaction for nothing). An event committed during the
     * publish is left pending for the next drain, which the worker's nudge starts, and that drain publishes it.
     */
    @Test
    void shouldLeaveAnEventCommittedDuringThePublishOfAShortBatchToTheNextDrain() {
        while (relay.drain("draining-relay", publisher).claimed() > 0) {
            // events other tests of this profile left pending
        }
        String sku = Api.sku();
        api.setStock(sku, 5);
        String first = api.reserve(Api.key(), sku, 1).path("id");
        String[] during = new String[1];
        EventPublisher reservingWhilePublishing = new EventPublisher() {
            @Override
            public Sent send(List<ClaimedRow> batch) {
                Sent sent = publisher.send(batch);
                if (during[0] == null) {
                    during[0] = api.reserve(Api.key(), sku, 1).path("id");
                }
                return sent;
            }

            @Override
            public boolean probe() {
                return publisher.probe();
            }

            @Override
            public String target() {
                return publisher.target();
            }
        };

        relay.drain("short-batch-relay", reservingWhilePublishing);

        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'", first))
                .isEqualTo(1);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PENDING' "
                + "AND locked_by IS NULL", during[0])).as("the event committed during the publish, not claimed").isEqualTo(1);
        relay.drain("short-batch-relay", publisher);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND status = 'PUBLISHED'", during[0]))
                .as("the next drain publishes it").isEqualTo(1);
        Eventually.await(Duration.ofSeconds(10), "both events delivered",
                () -> broker.of(api.tenant()).stream().map(BrokerQueue.Delivery::subject).distinct().count() == 2);
    }

    @Test
    void shouldPublishEachEventOnceAndInOrderWithThreeRelays() throws SQLException {
        int reservations = 500;
        int eventsEach = 4;
        Map<UUID, List<UUID>> written = insertEvents(reservations, eventsEach);
        List<RabbitPublisher> replicas = List.of(rabbit(), rabbit(), rabbit());

        try {
            Race.run(3, i -> {
                int idle = 0;
                while (idle < 20) {
                    idle = relay.drain("relay-" + i, replicas.get(i)).claimed() == 0 ? idle + 1 : 0;
                }
                return null;
            });
        } finally {
            replicas.forEach(RabbitPublisher::close);
        }

        Eventually.await(Duration.ofSeconds(20), "all events", () -> broker.handMadeOf(api.tenant()).size() >= reservations * eventsEach);
        List<BrokerQueue.Delivery> deliveries = broker.handMadeOf(api.tenant());
        assertThat(deliveries).hasSize(reservations * eventsEach);
        assertThat(deliveries.stream().map(BrokerQueue.Delivery::messageId).distinct().count()).isEqualTo(reservations * eventsEach);
        Map<UUID, List<UUID>> received = new HashMap<>();
        deliveries.forEach(
                d -> received.computeIfAbsent(UUID.fromString(d.subject()), k -> new ArrayList<>()).add(UUID.fromString(d.messageId())));
        assertThat(received).isEqualTo(written);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status <> 'PUBLISHED'", api.tenant())).isZero();
    }

    @Test
    void shouldBuryAPoisonEventAfterMaxAttemptsShowItAndPublishItAfterRequeue() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        String id = api.reserve(Api.key(), sku, 1).path("id");
        api.confirm(id).then().statusCode(200);
        EventPublisher brokenForThisTenant = failingFor(e -> e.tenantId().equals(api.tenant()) && e.aggregateId().toString().equals(id));

        for (int attempt = 0; attempt < 3; attempt++) {
            db.makeOutboxRetriesDue(api.tenant());
            relay.drain("relay", brokenForThisTenant);
        }

        assertThat(db.queryStrings("SELECT status FROM outbox_events WHERE aggregate_id = ?::uuid ORDER BY seq", id))
                .containsExactly("DEAD", "PENDING");
        api.request().get("/v1/admin/outbox").then().statusCode(200)
                .body("dead", equalTo(1)).body("pending", equalTo(1));
        String deadId = api.request().get("/v1/admin/outbox/dead").then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].attempts", equalTo(3))
                .body("[0].lastError", equalTo("nack: test broker refuses this tenant"))
                .body("[0].aggregateId", equalTo(id))
                .extract().path("[0].id");
        Eventually.await(Duration.ofSeconds(5), "the dead gauge",
                () -> Management.given().get("/q/metrics").asString().matches("(?s).*stockhold_outbox_dead\\{[^}]*\\} [1-9].*"));
        // the later event of the same reservation waits behind the dead one
        db.makeOutboxRetriesDue(api.tenant());
        relay.drain("relay", publisher);
        assertThat(broker.of(api.tenant())).isEmpty();

        Api.newTenant().request().post("/v1/admin/outbox/dead/{id}/requeue", deadId).then().statusCode(404);
        api.request().post("/v1/admin/outbox/dead/{id}/requeue", deadId).then().statusCode(200).body("status", equalTo("PENDING"));
        // the later event is claimable once the requeued one is marked: the first drain ends there, the next takes it
        assertThat(relay.drain("relay", publisher).confirmed()).as("the requeued event").isGreaterThanOrEqualTo(1);
        assertThat(relay.drain("relay", publisher).confirmed()).as("the event behind it").isGreaterThanOrEqualTo(1);
        Eventually.await(Duration.ofSeconds(10), "both events after the requeue", () -> broker.of(api.tenant()).size() == 2);

        assertThat(broker.of(api.tenant())).extracting(BrokerQueue.Delivery::routingKey)
                .containsExactly("reservation.created", "reservation.confirmed");
        api.request().get("/v1/admin/outbox/dead").then().body("size()", equalTo(0));
    }

    @Test
    void shouldHandTheBatchBackWithoutChargingAnAttemptWhenTheBrokerIsUnreachable() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        String id = api.reserve(Api.key(), sku, 1).path("id");
        EventPublisher down = unreachable(() -> {
        });

        // far more cycles than the retry budget (3 attempts in this profile)
        for (int i = 0; i < 10; i++) {
            OutboxRelay.Drained drained = relay.drain("relay", down);
            assertThat(drained.unreachable()).isTrue();
            assertThat(drained.confirmed()).isZero();
        }

        assertThat(db.queryStrings(
                "SELECT status || '/' || attempts || '/' || coalesce(locked_by, '-') FROM outbox_events WHERE aggregate_id = ?::uuid", id))
                .containsExactly("PENDING/0/-");
        relay.drain("relay", publisher);
        Eventually.await(Duration.ofSeconds(5), "delivery once the broker answers", () -> broker.of(api.tenant()).size() == 1);
    }

    /**
     * A reservation made while a batch is out to a broker that turns out unreachable was handed to the relay (its row
     * leased to it): the hand-back returns that lease too, at once, instead of leaving it through the relay's pause
     * until the lease runs out, and writers lease nothing more to the paused relay.
     */
    @Test
    void shouldHandBackTheHandOffsThatArrivedDuringAnUnreachablePublish() {
        while (relay.drain("draining-relay", publisher).claimed() > 0) {
            // events other tests of this profile left pending
        }
        String sku = Api.sku();
        api.setStock(sku, 5);
        relay.drain("draining-relay", publisher);
        String[] duringPublish = new String[1];
        EventPublisher slowThenDown = unreachable(() -> duringPublish[0] = api.reserve(Api.key(), sku, 1).path("id"));
        signal.open("handing-relay", Duration.ofSeconds(30));
        try {
            String first = api.reserve(Api.key(), sku, 1).path("id");
            assertThat(relay.drain("handing-relay", slowThenDown).unreachable()).isTrue();

            assertThat(db.queryStrings("SELECT coalesce(locked_by, '-') FROM outbox_events WHERE aggregate_id IN (?::uuid, ?::uuid)",
                    first, duringPublish[0])).as("the batch and the hand-off made during its publish, leased to nobody")
                    .containsExactly("-", "-");
            String paused = api.reserve(Api.key(), sku, 1).path("id");
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE aggregate_id = ?::uuid AND locked_by IS NULL", paused))
                    .as("written unleased while the broker is away").isEqualTo(1);
        } finally {
            signal.close();
        }
        relay.drain("handing-relay", publisher);
        Eventually.await(Duration.ofSeconds(5), "delivery once the broker answers", () -> broker.of(api.tenant()).size() == 3);
    }

    @Test
    void shouldHandLeasesBackOnShutdownSoAnotherRelayGoesOnAtOnce() {
        String sku = Api.sku();
        api.setStock(sku, 5);
        String id = api.reserve(Api.key(), sku, 1).path("id");
        assertThat(store.claim("stopping-relay", 1000, Duration.ofMinutes(5))).extracting(ClaimedRow::aggregateId)
                .contains(UUID.fromString(id));

        assertThat(store.releaseLeases("stopping-relay")).isGreaterThanOrEqualTo(1);

        relay.drain("next-relay", publisher);
        Eventually.await(Duration.ofSeconds(5), "delivery by the next relay", () -> broker.of(api.tenant()).size() == 1);
    }

    @Inject
    OutboxMaintenance maintenance;

    @Test
    void shouldDeletePublishedRowsPastTheRetentionAndKeepTheRest() throws SQLException {
        Map<UUID, List<UUID>> written = insertEvents(3, 2);
        List<UUID> old = written.values().stream().map(ids -> ids.get(0)).toList();
        db.execute("UPDATE outbox_events SET status = 'PUBLISHED', published_at = now() WHERE tenant_id = ?", api.tenant());
        for (UUID id : old) {
            db.execute("UPDATE outbox_events SET published_at = now() - interval '8 days' WHERE id = ?::uuid", id.toString());
        }

        int deleted = maintenance.deletePublishedBefore(java.time.Instant.now().minus(Duration.ofDays(7)));

        assertThat(deleted).isGreaterThanOrEqualTo(3);
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(3);
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE id = ANY (?::uuid[])",
                (Object) old.stream().map(UUID::toString).toArray(String[]::new))).isZero();
    }

    @Test
    void shouldRequireTheOpsRoleForOutboxAdministration() {
        given().auth().oauth2(dev.stockhold.support.Tokens.forTenant(api.tenant(), "reservations"))
                .get("/v1/admin/outbox").then().statusCode(403);
    }

    /** A broker that cannot be reached: each send runs {@code duringSend} (the batch is out meanwhile), then fails so. */
    private static EventPublisher unreachable(Runnable duringSend) {
        return new EventPublisher() {
            @Override
            public Sent send(List<ClaimedRow> batch) {
                duringSend.run();
                return Sent.answered(new PublishOutcome.Unreachable("unreachable", "ConnectException: Connection refused"));
            }

            @Override
            public boolean probe() {
                return false;
            }

            @Override
            public String target() {
                return "down";
            }
        };
    }

    private EventPublisher failingFor(Predicate<ClaimedRow> poisoned) {
        return new EventPublisher() {
            @Override
            public Sent send(List<ClaimedRow> batch) {
                Sent others = publisher.send(batch.stream().filter(poisoned.negate()).toList());
                return timeout -> {
                    Map<UUID, PublishFailure> failures = new HashMap<>(((PublishOutcome.Answered) others.await(timeout)).failures());
                    batch.stream().filter(poisoned).forEach(e -> failures.put(e.id(),
                            PublishFailure.transientFailure("nack", "test broker refuses this tenant")));
                    return new PublishOutcome.Answered(failures);
                };
            }

            @Override
            public boolean probe() {
                return true;
            }

            @Override
            public String target() {
                return "test";
            }
        };
    }

    private static RabbitPublisher rabbit() {
        return new RabbitPublisher("localhost", 5672, "guest", "guest", "/");
    }

    /** Writes events straight into the outbox, as many committed reservations would have. */
    private Map<UUID, List<UUID>> insertEvents(int reservations, int eventsEach) throws SQLException {
        String[] types = { "dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.confirmed.v1",
                "dev.stockhold.reservation.cancelled.v1", "dev.stockhold.reservation.expired.v1" };
        Map<UUID, List<UUID>> written = new HashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload) VALUES (?, ?, ?, ?, ?)
                """)) {
            for (int n = 0; n < eventsEach; n++) {
                for (int r = 0; r < reservations; r++) {
                    UUID aggregate = new UUID(42, r);
                    UUID id = UUID.randomUUID();
                    written.computeIfAbsent(aggregate, k -> new ArrayList<>()).add(id);
                    ps.setObject(1, id, Types.OTHER);
                    ps.setString(2, api.tenant());
                    ps.setObject(3, aggregate, Types.OTHER);
                    ps.setString(4, types[n]);
                    ps.setString(5, "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"type\":\"" + types[n] + "\",\"subject\":\""
                            + aggregate + "\",\"tenantid\":\"" + api.tenant() + "\",\"data\":{}}");
                    ps.addBatch();
                }
            }
            ps.executeBatch();
        }
        return written;
    }
}
