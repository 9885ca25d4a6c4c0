package dev.stockhold.outbox;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.client.events.Events;
import dev.stockhold.events.EventType;
import dev.stockhold.support.Api;
import dev.stockhold.support.EventContract;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Management;
import dev.stockhold.support.TenantFixture;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The relay against a real Kafka broker (KRaft, from the Kafka jars, its own process): the Kafka half of the events in docs/api.md. */
@QuarkusTest
@TestProfile(KafkaProfile.class)
class KafkaRelayTest extends TenantFixture {

    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    EventPublisher publisher;

    @Inject
    OutboxRelay relay;

    KafkaConsumer<String, String> consumer;
    final List<ConsumerRecord<String, String>> received = new ArrayList<>();

    @BeforeEach
    void setUp() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaProfile.requireBroker().bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumer = new KafkaConsumer<>(props);
        consumer.subscribe(List.of(KafkaPublisher.TOPIC, KafkaPublisher.STOCK_TOPIC));
    }

    @AfterEach
    void tearDown() {
        consumer.close();
    }

    @Test
    void shouldCreateTheTopicsWithTheConfiguredPartitionsInsteadOfLeavingThemToTheBroker() throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaProfile.broker.bootstrapServers());
        try (Admin admin = Admin.create(props)) {
            Map<String, Integer> partitions = new LinkedHashMap<>();
            admin.describeTopics(List.of(KafkaPublisher.TOPIC, KafkaPublisher.STOCK_TOPIC)).allTopicNames().get()
                    .forEach((name, description) -> partitions.put(name, description.partitions().size()));
            assertThat(partitions).containsEntry(KafkaPublisher.TOPIC, 3).containsEntry(KafkaPublisher.STOCK_TOPIC, 3);
        }
    }

    /** What the running producer really uses (read from it, not from the properties handed to it). */
    @Test
    void shouldRunAnIdempotentProducerThatWaitsForAllReplicasWithinThePublishTimeout() throws Exception {
        KafkaPublisher kafka = (KafkaPublisher) ClientProxy.unwrap(publisher);
        Field field = KafkaProducer.class.getDeclaredField("producerConfig");
        field.setAccessible(true);
        ProducerConfig running = (ProducerConfig) field.get(kafka.producer());

        assertThat(running.getString(ProducerConfig.ACKS_CONFIG)).isEqualTo("-1"); // all
        assertThat(running.getBoolean(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)).isTrue();
        assertThat(running.getInt(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION)).isLessThanOrEqualTo(5);
        assertThat(running.getInt(ProducerConfig.RETRIES_CONFIG)).isPositive();
        assertThat(running.getInt(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG)).isEqualTo(2_000);
        assertThat(running.getInt(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG)).isEqualTo(3_000);
        assertThat(running.getLong(ProducerConfig.MAX_BLOCK_MS_CONFIG)).isEqualTo(2_000L);
    }

    @Test
    void shouldDeliverEveryReservationAndStockEventOnceWithItsKeyHeadersAndOrder() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "WH-1", 3, null).then().statusCode(200);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(api.request().contentType("application/json").header("Idempotency-Key", Api.key())
                    .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                    .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").post("/v1/reservations")
                    .then().statusCode(201).extract().path("id"));
        }
        api.confirm(ids.get(0)).then().statusCode(200);
        api.cancel(ids.get(1)).then().statusCode(200);
        long written = db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ?", api.tenant());

        Eventually.await(Duration.ofSeconds(30), "all " + written + " events", () -> mine().size() >= written);
        List<ConsumerRecord<String, String>> mine = mine();
        assertThat(mine.stream().map(r -> header(r, "ce_id")).distinct().count()).isEqualTo(written);
        for (ConsumerRecord<String, String> record : mine) {
            JsonNode event = JSON.readTree(record.value());
            assertThat(header(record, "ce_id")).isEqualTo(event.path("id").asText());
            // what a consumer using the Java client reads: the id, the key and the data as the type's own record
            var read = Events.parse(record.value());
            assertThat(read.id().toString()).isEqualTo(header(record, "ce_id"));
            assertThat(read.partitionKey()).isEqualTo(record.key());
            assertThat(read.sequence()).isPositive();
            assertThat(read.data().getClass().getSimpleName())
                    .isEqualTo(EventType.ofType(read.type()).orElseThrow().data().getSimpleName());
            assertThat(header(record, "ce_type")).isEqualTo(event.path("type").asText());
            assertThat(header(record, "content-type")).isEqualTo("application/cloudevents+json");
            assertThat(event.path("specversion").asText()).isEqualTo("1.0");
            if (record.topic().equals(KafkaPublisher.TOPIC)) {
                assertThat(record.key()).isEqualTo(event.path("subject").asText());
                // the trace of the request that wrote the event: the client's own for the reservations it created
                assertThat(header(record, "traceparent")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]");
                if (event.path("type").asText().endsWith(".created.v1")) {
                    assertThat(header(record, "traceparent")).startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-");
                }
            } else {
                assertThat(record.key()).isEqualTo(api.tenant() + "/" + sku + "/WH-1");
            }
        }
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        mine.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(header(r, "ce_type")));
        assertThat(byKey.get(ids.get(0))).containsExactly("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.confirmed.v1");
        assertThat(byKey.get(ids.get(1))).containsExactly("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.cancelled.v1");
        assertThat(byKey.get(api.tenant() + "/" + sku + "/WH-1")).containsExactly("dev.stockhold.stock.changed.v1",
                "dev.stockhold.stock.replenished.v1", "dev.stockhold.stock.depleted.v1", "dev.stockhold.stock.replenished.v1");
    }

    /** Three relays at once (this replica's own and two more) over 1,600 events: each once, in write order per key. */
    @Test
    void shouldPublishEachEventOnceAndInOrderPerKeyWithThreeRelays() throws Exception {
        Map<String, List<String>> written = new LinkedHashMap<>();
        try (java.sql.Connection c = dataSource.getConnection();
                java.sql.PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload) VALUES (?::uuid, ?, ?::uuid, ?, ?)")) {
            for (int r = 0; r < 400; r++) {
                String aggregate = UUID.randomUUID().toString();
                for (int k = 0; k < 4; k++) {
                    String id = UUID.randomUUID().toString();
                    String type = "dev.stockhold.reservation." + (k == 0 ? "created" : "extended") + ".v1";
                    ps.setString(1, id);
                    ps.setString(2, api.tenant());
                    ps.setString(3, aggregate);
                    ps.setString(4, type);
                    ps.setString(5, "{\"specversion\":\"1.0\",\"id\":\"" + id + "\",\"type\":\"" + type + "\",\"subject\":\""
                            + aggregate + "\",\"tenantid\":\"" + api.tenant() + "\"}");
                    ps.addBatch();
                    written.computeIfAbsent(aggregate, a -> new ArrayList<>()).add(id);
                }
            }
            ps.executeBatch();
        }
        List<KafkaPublisher> others = List.of(otherReplica(), otherReplica());
        try {
            dev.stockhold.support.Race.run(2, i -> {
                int idle = 0;
                while (idle < 20) {
                    idle = relay.drain("relay-" + i, others.get(i)).claimed() == 0 ? idle + 1 : 0;
                }
                return null;
            });
        } finally {
            others.forEach(KafkaPublisher::close);
        }
        // a row is marked PUBLISHED only after the broker acknowledged it, so once all are, every record any relay
        // sent is below the end offsets read now: reading up to them sees all duplicates there are, without waiting
        Eventually.await(Duration.ofSeconds(30), "1,600 rows published", () -> db.queryLong(
                "SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PUBLISHED'", api.tenant()) == 1_600);
        readToTheEnd();
        List<ConsumerRecord<String, String>> mine = handMade();
        assertThat(mine).hasSize(1_600);
        Map<String, List<String>> received = new LinkedHashMap<>();
        mine.forEach(r -> received.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(header(r, "ce_id")));
        assertThat(received).isEqualTo(written);
    }

    private KafkaPublisher otherReplica() {
        return new KafkaPublisher(new KafkaProducer<>(KafkaPublisher.config(KafkaProfile.broker.bootstrapServers(), Duration.ofSeconds(2))),
                Duration.ofSeconds(2));
    }

    /**
     * {@code kill -9} of the broker while reservations go on, until the relay has handed its claim back and failed more
     * probes than an event has attempts: every event arrives after the restart, in order per key, nothing DEAD, no
     * publish call longer than the publish timeout (under the lease), no claim that outlived its lease or was kept
     * through the outage (the relay gives back what it could not publish at once), and every event published within
     * a lease of the broker's return.
     */
    @Test
    void shouldSurviveABrokerKillWithoutLosingOrDuplicatingAClaim() throws Exception {
        String sku = Api.sku();
        api.setStock(sku, 1000);
        double lostBefore = Management.metric("stockhold_outbox_leases_lost_total");
        List<String> ids = new ArrayList<>();
        double failedProbes = Management.metric(ShortRetryScheduleProfile.PROBES, ShortRetryScheduleProfile.FAILED);
        Duration lease = ConfigProvider.getConfig().getValue("stockhold.relay.lease", Duration.class);
        ClaimAges claims = ClaimAges.watch(db, api.tenant(), lease);
        KafkaProfile.broker.kill();
        long killed = System.nanoTime();
        long killedMillis;
        long oldestClaim;
        try {
            // the relay's publish call ends (the claim handed back, not left to its lease), it pauses and probes;
            // reservations are written between failed probes, more of them than the retry schedule has attempts
            for (int probe = 1; probe <= ShortRetryScheduleProfile.MAX_ATTEMPTS + 1; probe++) {
                String id = api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id");
                api.confirm(id).then().statusCode(200);
                ids.add(id);
                double seen = failedProbes + probe;
                Eventually.await(Duration.ofSeconds(30), "failed probe " + probe + " of the killed broker",
                        () -> Management.metric(ShortRetryScheduleProfile.PROBES, ShortRetryScheduleProfile.FAILED) >= seen);
            }
            assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND (status = 'DEAD' OR attempts > 0)",
                    api.tenant())).as("events charged for the outage").isZero();
            oldestClaim = claims.oldest();
        } finally {
            claims.stop();
            killedMillis = (System.nanoTime() - killed) / 1_000_000;
            KafkaProfile.broker.restart();
        }
        long back = System.nanoTime();
        long written = db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ?", api.tenant());
        Eventually.await(Duration.ofSeconds(60), "every event after the restart",
                () -> db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PUBLISHED'",
                        api.tenant()) == written);
        long publishedAfterMs = (System.nanoTime() - back) / 1_000_000;
        Eventually.await(Duration.ofSeconds(60), "every event read back",
                () -> mine().stream().map(r -> header(r, "ce_id")).distinct().count() == written);

        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'DEAD'", api.tenant())).isZero();
        Map<String, List<String>> byKey = new LinkedHashMap<>();
        mine().forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(header(r, "ce_type")));
        for (String id : ids) {
            assertThat(byKey.get(id).stream().distinct().toList()).as("order of %s", id)
                    .containsExactly("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.confirmed.v1");
        }
        double longestCall = Management.metric("stockhold_outbox_publish_call_seconds_max");
        System.out.printf("KafkaRelayTest: %d events through a %d ms broker kill; longest publish call %.2f s (timeout 2 s);"
                + " oldest claim during the kill %d ms (lease %d ms); all published %d ms after the restart%n",
                written, killedMillis, longestCall, oldestClaim, lease.toMillis(), publishedAfterMs);
        assertThat(longestCall).as("longest publish call, seconds").isLessThanOrEqualTo(2.5);
        // a claim is held at most through one publish call (the timeout, 2 s); one kept until its lease ran out is seen at 4 s
        assertThat(oldestClaim).as("ms the relay held an event it could not publish").isLessThan(lease.toMillis());
        assertThat(publishedAfterMs).as("ms from the broker's restart to the last event published").isLessThan(lease.toMillis());
        assertThat(Management.metric("stockhold_outbox_leases_lost_total")).as("marks that found their lease gone").isEqualTo(lostBefore);
        assertThat(Management.given().get("/q/metrics").asString())
                .containsPattern("stockhold_outbox_publish_failures_total\\{reason=\"(unreachable|timeout)\"[^}]*\\} [1-9]");
    }

    /** This test's records, each held to the published contract: its data by its schema, its key its partitionkey. */
    private List<ConsumerRecord<String, String>> mine() {
        List<ConsumerRecord<String, String>> mine = handMade();
        for (ConsumerRecord<String, String> record : mine) {
            EventContract.assertConforms(record.value());
            assertThat(record.value()).as("the key is the partitionkey").contains("\"partitionkey\":\"" + record.key() + "\"");
        }
        return mine;
    }

    /** Polls until the consumer has read every partition of both topics up to its end offset as of now. */
    private void readToTheEnd() {
        List<TopicPartition> partitions = Stream.of(KafkaPublisher.TOPIC, KafkaPublisher.STOCK_TOPIC)
                .flatMap(topic -> consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition()))).toList();
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Eventually.await(Duration.ofSeconds(30), "the end offsets " + end, () -> {
            consumer.poll(Duration.ofMillis(200)).forEach(received::add);
            return consumer.assignment().containsAll(partitions)
                    && end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
        });
    }

    /** This test's records as received, not held to the contract: for hand-made outbox rows, which are not Stockhold's events. */
    private List<ConsumerRecord<String, String>> handMade() {
        consumer.poll(Duration.ofMillis(200)).forEach(received::add);
        return received.stream().filter(r -> r.value().contains("\"tenantid\":\"" + api.tenant() + "\"")).toList();
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
