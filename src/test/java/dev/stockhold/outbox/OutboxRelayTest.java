package dev.stockhold.outbox;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.BrokerFixture;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.DeduplicatingConsumer;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Management;
import dev.stockhold.support.StockedSku;
import io.quarkus.test.junit.QuarkusTest;

/** The relay as it runs in the service, against the real RabbitMQ. */
@QuarkusTest
@StockedSku(100)
class OutboxRelayTest extends BrokerFixture {

    @Test
    void shouldPublishEveryLifecycleEventAsACloudEventOnceAndNothingForReplaysOrNoOps() {
        String key = Api.key();
        String confirmed = api.reserve(key, sku, 2).path("id");
        api.reserve(key, sku, 2).then().header("Idempotent-Replayed", "true");
        api.confirm(confirmed).then().statusCode(200);
        api.confirm(confirmed).then().statusCode(200);
        String cancelled = api.reserve(Api.key(), sku, 1).path("id");
        api.cancel(cancelled).then().statusCode(200);

        Eventually.await(Duration.ofSeconds(10), "4 events", () -> broker.of(api.tenant()).size() >= 4);
        // a marker written after them: the relay publishes in write order, so once it is here nothing earlier is still due
        String marker = api.reserve(Api.key(), sku, 1).path("id");
        Eventually.await(Duration.ofSeconds(10), "the marker",
                () -> broker.of(api.tenant()).stream().anyMatch(e -> e.subject().equals(marker)));

        List<BrokerQueue.Delivery> events = broker.of(api.tenant()).stream().filter(e -> !e.subject().equals(marker)).toList();
        assertThat(events).extracting(BrokerQueue.Delivery::routingKey)
                .containsExactlyInAnyOrder("reservation.created", "reservation.confirmed", "reservation.created", "reservation.cancelled");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.contentType()).isEqualTo("application/cloudevents+json");
            assertThat(e.deliveryMode()).isEqualTo(2);
            assertThat(e.messageId()).isEqualTo(e.event().path("id").asText());
            assertThat(e.event().path("specversion").asText()).isEqualTo("1.0");
            assertThat(e.event().path("source").asText()).isEqualTo("/stockhold");
            assertThat(e.event().path("datacontenttype").asText()).isEqualTo("application/json");
            assertThat(e.event().path("time").asText()).isNotEmpty();
            assertThat(e.event().path("data").path("id").asText()).isEqualTo(e.subject());
            assertThat(e.type()).isEqualTo("dev.stockhold." + e.routingKey() + ".v1");
        });
        assertThat(events).filteredOn(e -> e.subject().equals(confirmed)).extracting(e -> e.event().path("data").path("status").asText())
                .containsExactly("HELD", "CONFIRMED");
        assertThat(
                db.queryStrings("SELECT id::text FROM outbox_events WHERE tenant_id = ? AND event_type LIKE 'dev.stockhold.reservation.%' "
                        + "AND aggregate_id <> ?::uuid ORDER BY seq", api.tenant(), marker))
                .containsExactlyInAnyOrderElementsOf(events.stream().map(BrokerQueue.Delivery::messageId).toList());
        Eventually.await(Duration.ofSeconds(5), "rows marked published",
                () -> db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PUBLISHED'", api.tenant()) == 4
                        + 1 + 2); // the marker, and the setup's stock.changed and stock.replenished
    }

    @Test
    void shouldKeepReservingWhileTheBrokerIsDownAndDeliverEverythingInOrderWhenItReturns() throws Exception {
        List<String> ids = new ArrayList<>();
        rabbitmqctl("stop_app");
        try {
            for (int i = 0; i < 10; i++) {
                ids.add(api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id"));
            }
            for (int i = 0; i < 5; i++) {
                api.confirm(ids.get(i)).then().statusCode(200);
            }
            Eventually.await(Duration.ofSeconds(10), "the relay to notice the outage",
                    () -> Management.given().get("/q/health/ready").then().extract().asString().contains("unreachable"));
            Management.given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PENDING' "
                    + "AND event_type LIKE 'dev.stockhold.reservation.%'", api.tenant())).isEqualTo(15);
            assertThat(Management.given().get("/q/metrics").asString())
                    .containsPattern("stockhold_outbox_publish_failures_total\\{reason=\"unreachable\"[^}]*\\} [1-9]");
        } finally {
            rabbitmqctl("start_app");
        }
        rabbitmqctl("await_startup");
        broker.consume();

        DeduplicatingConsumer consumer = new DeduplicatingConsumer();
        Eventually.await(Duration.ofSeconds(30), "all 15 events after the outage", () -> broker.of(api.tenant()).stream()
                .map(BrokerQueue.Delivery::messageId).distinct().count() == 15);
        List<BrokerQueue.Delivery> delivered = broker.of(api.tenant());
        delivered.forEach(consumer::apply);
        assertThat(consumer.applied()).isEqualTo(15);
        Map<String, List<String>> perReservation = new LinkedHashMap<>();
        delivered.forEach(d -> perReservation.computeIfAbsent(d.subject(), s -> new ArrayList<>()).add(d.routingKey()));
        for (int i = 0; i < 10; i++) {
            List<String> keys = perReservation.get(ids.get(i)).stream().distinct().toList();
            assertThat(keys).as("order of %s", ids.get(i))
                    .containsExactlyElementsOf(
                            i < 5 ? List.of("reservation.created", "reservation.confirmed") : List.of("reservation.created"));
        }
        Eventually.await(Duration.ofSeconds(5), "rows marked published",
                () -> db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PUBLISHED'", api.tenant()) == 15
                        + 2); // and the setup's two stock events
    }

    static void rabbitmqctl(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("rabbitmqctl", command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException("rabbitmqctl " + command + " failed: " + output);
        }
    }
}
