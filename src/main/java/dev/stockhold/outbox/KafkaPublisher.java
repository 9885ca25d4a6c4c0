package dev.stockhold.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Kafka: topic {@code stockhold.reservations}, record key = reservation id (one partition per reservation, so its
 * events stay in order), and {@code stockhold.stock} for stock events, key = tenant/sku/location, {@code acks=all} and an idempotent producer so a producer retry never duplicates or
 * reorders.
 */
public class KafkaPublisher implements EventPublisher {

    public static final String TOPIC = "stockhold.reservations";
    /** Stock events, keyed tenant/sku/location so each record's events stay in order on one partition. */
    public static final String STOCK_TOPIC = "stockhold.stock";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Producer<String, String> producer;

    public KafkaPublisher(String bootstrapServers, Duration timeout) {
        this(new KafkaProducer<>(config(bootstrapServers, timeout)));
    }

    KafkaPublisher(Producer<String, String> producer) {
        this.producer = producer;
    }

    static Properties config(String bootstrapServers, Duration timeout) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "stockhold-relay");
        int millis = (int) Math.max(1_000, timeout.toMillis());
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, millis + 1_000);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, millis);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return props;
    }

    /** tenant/sku/location, from the event's subject sku@location (a sku never contains '@'). */
    static String stockKey(OutboxEvent event) {
        try {
            String subject = JSON.readTree(event.payload()).path("subject").asText();
            return event.tenantId() + "/" + subject.replaceFirst("@", "/");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return event.tenantId() + "/" + event.aggregateId();
        }
    }

    @Override
    public Sent send(List<OutboxEvent> batch) {
        Map<UUID, Future<RecordMetadata>> sent = new LinkedHashMap<>();
        Map<UUID, PublishFailure> failures = new LinkedHashMap<>();
        for (OutboxEvent event : batch) {
            ProducerRecord<String, String> record = EventType.ofType(event.type()).filter(EventType::isStock).isPresent()
                    ? new ProducerRecord<>(STOCK_TOPIC, stockKey(event), event.payload())
                    : new ProducerRecord<>(TOPIC, event.aggregateId().toString(), event.payload());
            record.headers().add("content-type", CloudEvent.MEDIA_TYPE.getBytes(StandardCharsets.UTF_8));
            record.headers().add("ce_id", event.id().toString().getBytes(StandardCharsets.UTF_8));
            record.headers().add("ce_type", event.type().getBytes(StandardCharsets.UTF_8));
            if (event.traceparent() != null) {
                record.headers().add("traceparent", event.traceparent().getBytes(StandardCharsets.UTF_8));
            }
            try {
                sent.put(event.id(), producer.send(record));
            } catch (SerializationException | RecordTooLargeException e) {
                failures.put(event.id(), PublishFailure.permanent("serialization", e.getMessage()));
            } catch (RuntimeException e) {
                // send() blocks up to max.block.ms for metadata, then throws: no broker to talk to
                return Sent.answered(new PublishOutcome.Unreachable("unreachable", String.valueOf(e.getMessage())));
            }
        }
        return timeout -> await(sent, failures, timeout);
    }

    private static PublishOutcome await(Map<UUID, Future<RecordMetadata>> sent, Map<UUID, PublishFailure> failures, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        // answered: a record acknowledged, or refused for what it is; only when none was, the broker is unreachable
        boolean anyAnswered = !failures.isEmpty();
        String unreachable = null;
        for (Map.Entry<UUID, Future<RecordMetadata>> entry : sent.entrySet()) {
            try {
                entry.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                anyAnswered = true;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RecordTooLargeException || cause instanceof SerializationException) {
                    anyAnswered = true;
                    failures.put(entry.getKey(), PublishFailure.permanent("serialization", String.valueOf(cause)));
                } else if (cause instanceof RetriableException) {
                    // metadata or delivery timeout, lost connection: the broker, not this event
                    unreachable = String.valueOf(cause);
                    failures.put(entry.getKey(), PublishFailure.transientFailure("unreachable", String.valueOf(cause)));
                } else {
                    anyAnswered = true;
                    failures.put(entry.getKey(), PublishFailure.transientFailure("nack", String.valueOf(cause)));
                }
            } catch (TimeoutException e) {
                unreachable = "no acknowledgement within " + timeout;
                failures.put(entry.getKey(), PublishFailure.transientFailure("timeout", unreachable));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new PublishOutcome.Unreachable("interrupted", "relay stopping");
            }
        }
        if (!anyAnswered && unreachable != null) {
            return new PublishOutcome.Unreachable("unreachable", unreachable);
        }
        return new PublishOutcome.Answered(failures);
    }

    @Override
    public boolean probe() {
        try {
            producer.partitionsFor(TOPIC);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public String target() {
        return "kafka";
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
