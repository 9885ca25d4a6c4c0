package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import dev.stockhold.events.AggregateType;

/**
 * What the Kafka publisher asks of Kafka (record layout, producer guarantees, failure classes). No Kafka broker runs
 * here: delivery itself is covered by the RabbitMQ tests, which share the relay.
 */
class KafkaPublisherTest {

    @Test
    void shouldAskForAllReplicasAndAnIdempotentProducer() {
        Properties config = KafkaPublisher.config("broker:9092", Duration.ofSeconds(10));

        assertThat(config).containsEntry(ProducerConfig.ACKS_CONFIG, "all")
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
                .containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    }

    @Test
    void shouldKeyEachRecordByReservationOnTheReservationsTopic() {
        MockProducer<String, String> producer = new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
        ClaimedRow event = event();

        PublishOutcome outcome = new KafkaPublisher(producer, Duration.ofSeconds(1)).publish(List.of(event), Duration.ofSeconds(1));

        assertThat(outcome).isEqualTo(PublishOutcome.Answered.allConfirmed());
        ProducerRecord<String, String> record = producer.history().get(0);
        assertThat(record.topic()).isEqualTo("stockhold.reservations");
        assertThat(record.key()).isEqualTo(event.aggregateId().toString());
        assertThat(record.value()).isEqualTo(event.payload());
        assertThat(new String(record.headers().lastHeader("ce_id").value(), StandardCharsets.UTF_8)).isEqualTo(event.id().toString());
        assertThat(new String(record.headers().lastHeader("content-type").value(), StandardCharsets.UTF_8))
                .isEqualTo("application/cloudevents+json");
    }

    @Test
    void shouldRetryATimeoutOfOneRecordButBuryARecordTooLarge() {
        MockProducer<String, String> producer = new MockProducer<>(false, null, new StringSerializer(), new StringSerializer());
        ClaimedRow slow = event();
        ClaimedRow huge = event();
        KafkaPublisher publisher = new KafkaPublisher(producer, Duration.ofSeconds(1));
        Thread broker = new Thread(() -> {
            while (producer.history().size() < 2) {
                Thread.onSpinWait();
            }
            producer.errorNext(new TimeoutException("no leader"));
            producer.errorNext(new RecordTooLargeException("too large"));
        });
        broker.start();

        PublishOutcome outcome = publisher.publish(List.of(slow, huge), Duration.ofSeconds(5));

        // one record reached a broker that answered: each failure is the event's own
        assertThat(outcome).isInstanceOf(PublishOutcome.Answered.class);
        Map<UUID, PublishFailure> failures = ((PublishOutcome.Answered) outcome).failures();
        assertThat(failures.get(slow.id()).permanent()).isFalse();
        assertThat(failures.get(huge.id()).permanent()).isTrue();
    }

    @Test
    void shouldReportABrokerThatTimesOutOnEveryRecordAsUnreachableNotAsEventFailures() {
        MockProducer<String, String> producer = new MockProducer<>(false, null, new StringSerializer(), new StringSerializer());
        KafkaPublisher publisher = new KafkaPublisher(producer, Duration.ofSeconds(1));
        Thread broker = new Thread(() -> {
            while (producer.history().size() < 2) {
                Thread.onSpinWait();
            }
            producer.errorNext(new TimeoutException("metadata not available"));
            producer.errorNext(new TimeoutException("metadata not available"));
        });
        broker.start();

        PublishOutcome outcome = publisher.publish(List.of(event(), event()), Duration.ofSeconds(5));

        assertThat(outcome).isInstanceOf(PublishOutcome.Unreachable.class);
    }

    @Test
    void shouldKeyEachEventByItsPartitionKeyOnItsAggregateTypesTopic() {
        MockProducer<String, String> producer = new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
        UUID id = UUID.randomUUID();
        ClaimedRow event = new ClaimedRow(id, 1, "t-1", UUID.randomUUID(), "dev.stockhold.stock.depleted.v1",
                "{\"id\":\"" + id + "\",\"subject\":\"ignored@here\"}", 0, Instant.now(), null, "t-1/A-1/WH-2");

        new KafkaPublisher(producer, Duration.ofSeconds(1)).publish(List.of(event), Duration.ofSeconds(1));

        ProducerRecord<String, String> record = producer.history().get(0);
        assertThat(record.topic()).isEqualTo("stockhold.stock");
        assertThat(record.key()).isEqualTo("t-1/A-1/WH-2");
    }

    @Test
    void shouldRefuseToStartWithAnEventTypeWhoseAggregateHasNoTopic() {
        assertThatThrownBy(() -> KafkaPublisher.routes(Map.of(AggregateType.RESERVATION, KafkaPublisher.TOPIC)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("dev.stockhold.stock.changed.v1")
                .hasMessageContaining("STOCK_RECORD");
        assertThat(KafkaPublisher.TOPICS).containsOnlyKeys(AggregateType.values());
    }

    @Test
    void shouldKeyAStockEventOfAnEarlierReleaseByTenantSkuAndLocationFromItsSubject() {
        MockProducer<String, String> producer = new MockProducer<>(true, null, new StringSerializer(), new StringSerializer());
        UUID id = UUID.randomUUID();
        ClaimedRow event = new ClaimedRow(id, 1, "t-1", UUID.randomUUID(), "dev.stockhold.stock.changed.v1",
                "{\"id\":\"" + id + "\",\"subject\":\"A-1@WH-2\"}", 0, Instant.now(), null, null);

        new KafkaPublisher(producer, Duration.ofSeconds(1)).publish(List.of(event), Duration.ofSeconds(1));

        ProducerRecord<String, String> record = producer.history().get(0);
        assertThat(record.topic()).isEqualTo("stockhold.stock");
        assertThat(record.key()).isEqualTo("t-1/A-1/WH-2");
    }

    private static ClaimedRow event() {
        UUID id = UUID.randomUUID();
        return new ClaimedRow(id, 1, "t", UUID.randomUUID(), "dev.stockhold.reservation.created.v1",
                "{\"id\":\"" + id + "\"}", 0, Instant.now(), "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null);
    }
}
