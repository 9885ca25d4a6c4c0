package dev.stockhold.outbox;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
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

import dev.stockhold.Causes;
import dev.stockhold.StockholdConfig;
import dev.stockhold.events.AggregateType;
import dev.stockhold.events.EventType;
import io.quarkus.logging.Log;

/**
 * Kafka: each event goes to its aggregate type's topic ({@code stockhold.reservations}, {@code stockhold.stock}, which
 * transfers share) with its partition key as the record key (the reservation id; tenant/sku/location; the transfer id), so one aggregate's events stay in order on
 * one partition; {@code acks=all} and an idempotent producer so a producer retry never duplicates or reorders.
 */
public class KafkaPublisher implements EventPublisher {

    public static final String TOPIC = "stockhold.reservations";
    /** Stock events, keyed tenant/sku/location so each record's events stay in order on one partition. */
    public static final String STOCK_TOPIC = "stockhold.stock";
    /** Each aggregate type's topic, checked when the class loads: a relay with an event type it cannot route never starts. */
    static final Map<AggregateType, String> TOPICS = routes(
            Map.of(AggregateType.RESERVATION, TOPIC, AggregateType.STOCK_RECORD, STOCK_TOPIC, AggregateType.TRANSFER, STOCK_TOPIC));
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Producer<String, String> producer;
    /** How long one publish call may take, sends and acknowledgements together: the relay's publish timeout. */
    private final Duration timeout;
    private volatile String topologyWarning;

    public KafkaPublisher(String bootstrapServers, Duration timeout, StockholdConfig.Relay.Kafka topics) {
        this(new KafkaProducer<>(config(bootstrapServers, timeout)), timeout);
        if (topics.createTopics()) {
            ensureTopics(bootstrapServers, timeout, topics);
        }
    }

    KafkaPublisher(Producer<String, String> producer, Duration timeout) {
        this.producer = producer;
        this.timeout = timeout;
    }

    /**
     * Creates the topics that do not exist yet with the configured partitions and replication factor, and reports a topic
     * that exists with fewer partitions than configured (health details and a WARN) instead of changing it: adding
     * partitions moves keys to other partitions, which breaks per-key order for events already published. A broker that
     * cannot be reached now is not fatal: the relay waits for it like for any outage, and the topics are checked again
     * at the next start.
     */
    private void ensureTopics(String bootstrapServers, Duration timeout, StockholdConfig.Relay.Kafka topics) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String topic : List.of(TOPIC, STOCK_TOPIC)) {
                if (!existing.contains(topic)) {
                    missing.add(new NewTopic(topic, Optional.of(topics.partitions()),
                            topics.replicationFactor() < 0 ? Optional.empty() : Optional.of(topics.replicationFactor())));
                }
            }
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                Log.infof("Created Kafka topics %s with %d partitions", missing.stream().map(NewTopic::name).toList(), topics.partitions());
            }
            List<String> narrow = new ArrayList<>();
            admin.describeTopics(List.of(TOPIC, STOCK_TOPIC)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((name, description) -> {
                        if (description.partitions().size() < topics.partitions()) {
                            narrow.add(name + " has " + description.partitions().size() + " partitions, configured "
                                    + topics.partitions());
                        }
                    });
            if (!narrow.isEmpty()) {
                topologyWarning = String.join("; ", narrow) + " (left as is: adding partitions would reorder keys)";
                Log.warn(topologyWarning);
            }
        } catch (ExecutionException | TimeoutException e) {
            Log.warnf("Could not check or create the Kafka topics now (%s); publishing waits for the broker", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The running producer, for tests that read its effective configuration. */
    Producer<String, String> producer() {
        return producer;
    }

    @Override
    public Optional<String> topologyWarning() {
        return Optional.ofNullable(topologyWarning);
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

    /** The topic an event of this type goes to. */
    public static String topicOf(EventType type) {
        return TOPICS.get(type.aggregateType());
    }

    /**
     * The record key: the event's partition key (its CloudEvents partitionkey). Rows an earlier release wrote have none;
     * their key is derived as that release did: the reservation id, or tenant/sku/location from a stock event's subject.
     */
    static String key(ClaimedRow event, EventType type) {
        if (event.partitionKey() != null) {
            return event.partitionKey();
        }
        if (type.aggregateType() == AggregateType.RESERVATION) {
            return event.aggregateId().toString();
        }
        try {
            String subject = JSON.readTree(event.payload()).path("subject").asText();
            return event.tenantId() + "/" + subject.replaceFirst("@", "/");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return event.tenantId() + "/" + event.aggregateId();
        }
    }

    /**
     * The topic of each aggregate type's events. Every event type must have one: an event of an aggregate type without a
     * topic stops the start, never falls through to another topic.
     */
    static Map<AggregateType, String> routes(Map<AggregateType, String> topics) {
        List<String> missing = java.util.Arrays.stream(EventType.values()).filter(t -> !topics.containsKey(t.aggregateType()))
                .map(t -> t.type() + " (aggregate " + t.aggregateType() + ")").toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("No Kafka topic for " + String.join(", ", missing));
        }
        return Map.copyOf(topics);
    }

    /**
     * Sends the batch, stopping at the first sign that the broker cannot be reached: {@code send()} waits up to
     * {@code max.block.ms} for metadata and then hands back a failed future rather than throwing, so without this one
     * call per event would each wait that long, and a claimed batch would outlive its lease. The whole call, sends and
     * acknowledgements, stays within the publish timeout.
     */
    @Override
    public Sent send(List<ClaimedRow> batch) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<UUID, Future<RecordMetadata>> sent = new LinkedHashMap<>();
        Map<UUID, PublishFailure> failures = new LinkedHashMap<>();
        for (ClaimedRow event : batch) {
            if (System.nanoTime() > deadline) {
                return Sent.answered(new PublishOutcome.Unreachable("timeout", "no room to send within " + timeout));
            }
            Optional<EventType> type = EventType.ofType(event.type());
            if (type.isEmpty()) {
                failures.put(event.id(), PublishFailure.permanent("serialization", "unknown event type " + event.type()));
                continue;
            }
            ProducerRecord<String, String> record = new ProducerRecord<>(TOPICS.get(type.get().aggregateType()), key(event, type.get()),
                    event.payload());
            record.headers().add("content-type", CloudEvent.MEDIA_TYPE.getBytes(StandardCharsets.UTF_8));
            record.headers().add("ce_id", event.id().toString().getBytes(StandardCharsets.UTF_8));
            record.headers().add("ce_type", event.type().getBytes(StandardCharsets.UTF_8));
            if (event.traceparent() != null) {
                record.headers().add("traceparent", event.traceparent().getBytes(StandardCharsets.UTF_8));
            }
            try {
                Future<RecordMetadata> future = producer.send(record);
                Optional<String> down = failedForTheBroker(future);
                if (down.isPresent()) {
                    return Sent.answered(new PublishOutcome.Unreachable("unreachable", down.get()));
                }
                sent.put(event.id(), future);
            } catch (SerializationException | RecordTooLargeException e) {
                failures.put(event.id(), PublishFailure.permanent("serialization", e.getMessage()));
            } catch (RuntimeException e) {
                // send() blocks up to max.block.ms for metadata, then throws: no broker to talk to
                return Sent.answered(new PublishOutcome.Unreachable("unreachable", String.valueOf(e.getMessage())));
            }
        }
        return wait -> await(sent, failures, Duration.ofNanos(Math.max(0, Math.min(wait.toNanos(), deadline - System.nanoTime()))));
    }

    /** A future that failed already, during send(), for a reason of the broker's (metadata timeout, no connection). */
    private static Optional<String> failedForTheBroker(Future<RecordMetadata> future) {
        if (!future.isDone()) {
            return Optional.empty();
        }
        try {
            future.get();
            return Optional.empty();
        } catch (ExecutionException e) {
            return isBrokerSide(e.getCause()) ? Optional.of(String.valueOf(e.getCause())) : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** Retriable errors (timeouts, lost connections, no leader) are about the broker, not the event. */
    private static boolean isBrokerSide(Throwable cause) {
        return cause != null && Causes.any(cause, RetriableException.class);
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
                } else if (isBrokerSide(cause)) {
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
