package dev.stockhold.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.outbox.KafkaPublisher;
import dev.stockhold.support.BrokerQueue.Delivery;
import dev.stockhold.support.EventContract;

/**
 * The chaos run's consumer when the relay targets Kafka: both topics from the start, every record kept as a
 * {@link Delivery} (message id = the {@code ce_id} header, routing key = the type's middle part), so the checker reads
 * Kafka and RabbitMQ runs the same way. Keeps polling through broker outages.
 */
final class KafkaFeed implements Aftermath.EventFeed {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final Thread poller;
    private volatile boolean closed;

    KafkaFeed(String bootstrapServers) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "chaos-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        poller = new Thread(() -> {
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
                consumer.subscribe(List.of(KafkaPublisher.TOPIC, KafkaPublisher.STOCK_TOPIC));
                while (!closed) {
                    try {
                        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                            deliveries.add(delivery(record));
                        }
                    } catch (RuntimeException e) {
                        sleep(); // the broker is down: keep trying
                    }
                }
            }
        }, "chaos-kafka-feed");
        poller.setDaemon(true);
        poller.start();
    }

    private static Delivery delivery(ConsumerRecord<String, String> record) {
        JsonNode event;
        try {
            event = JSON.readTree(record.value());
        } catch (java.io.IOException e) {
            event = JSON.createObjectNode();
        }
        String[] type = event.path("type").asText("x.x.x.x.x").split("\\.");
        return new Delivery(header(record, "ce_id"), type.length > 3 ? type[2] + "." + type[3] : "", header(record, "content-type"),
                null, event, header(record, "traceparent"));
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Every record of the tenant, each held to the published contract (support/EventContract). */
    @Override
    public List<Delivery> allOf(String tenant) {
        List<Delivery> mine = deliveries.stream().filter(d -> tenant.equals(d.tenant())).toList();
        mine.forEach(d -> EventContract.assertConforms(d.event()));
        return mine;
    }

    @Override
    public void close() {
        closed = true;
        try {
            poller.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
