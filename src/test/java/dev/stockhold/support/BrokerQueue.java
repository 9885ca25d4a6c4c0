package dev.stockhold.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import dev.stockhold.outbox.RabbitTopology;

/**
 * A real consumer on the local RabbitMQ: a durable queue bound to {@code stockhold.events} with {@code #}, so it
 * survives a broker restart and misses nothing published while it reconnects. Every delivery is recorded, in the
 * order received, before it is acknowledged (manual acks): a delivery lost with a dropped connection comes again,
 * which the record shows as a duplicate, never as a gap. Reconnects by itself after the broker comes back.
 */
public final class BrokerQueue implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One delivery as the consumer saw it. */
    public record Delivery(String messageId, String routingKey, String contentType, Integer deliveryMode, JsonNode event,
            String traceparent) {
        public String tenant() {
            return event.path("tenantid").asText();
        }

        public String subject() {
            return event.path("subject").asText();
        }

        public String type() {
            return event.path("type").asText();
        }

        /** The CloudEvent id inside the message (the relay also sets it as the AMQP message_id). */
        public String eventId() {
            return event.path("id").asText();
        }

        /** The CloudEvents sequence: contiguous per aggregate from 1 (0 when absent). */
        public long sequence() {
            return EventContract.sequence(event);
        }

        /** The CloudEvents partitionkey: the aggregate the sequence counts. */
        public String partitionKey() {
            return event.path("partitionkey").asText();
        }
    }

    private final String queue = "stockhold-test-" + UUID.randomUUID();
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final Thread keeper;
    private volatile boolean closed;
    private Connection connection;

    public BrokerQueue() {
        declare();
        consume();
        keeper = new Thread(this::keepConsuming, "broker-queue-" + queue);
        keeper.setDaemon(true);
        keeper.start();
    }

    private static ConnectionFactory factory() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("localhost");
        factory.setPort(5672);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(2_000);
        return factory;
    }

    private void declare() {
        try (Connection c = factory().newConnection()) {
            Channel ch = RabbitTopology.declare(c).channel();
            ch.queueDeclare(queue, true, false, false, Map.of());
            ch.queueBind(queue, RabbitTopology.EXCHANGE, "#");
        } catch (IOException | TimeoutException e) {
            throw new IllegalStateException("RabbitMQ at localhost:5672 is needed for this test", e);
        }
    }

    /** (Re)starts consuming now if the connection is gone, for instance right after the broker came back. */
    public synchronized void consume() {
        if (connection != null && connection.isOpen()) {
            return;
        }
        try {
            connection = factory().newConnection();
            Channel ch = connection.createChannel();
            ch.basicQos(200);
            ch.basicConsume(queue, false, (tag, message) -> {
                deliveries.add(new Delivery(
                        message.getProperties().getMessageId(),
                        message.getEnvelope().getRoutingKey(),
                        message.getProperties().getContentType(),
                        message.getProperties().getDeliveryMode(),
                        JSON.readTree(new String(message.getBody(), StandardCharsets.UTF_8)),
                        header(message.getProperties().getHeaders(), "traceparent")));
                ch.basicAck(message.getEnvelope().getDeliveryTag(), false);
            }, tag -> {
            });
        } catch (IOException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private void keepConsuming() {
        while (!closed) {
            try {
                Thread.sleep(500);
                consume();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // broker down: try again shortly
            }
        }
    }

    private static String header(Map<String, Object> headers, String name) {
        return headers == null || headers.get(name) == null ? null : headers.get(name).toString();
    }

    /** The reservation events of one tenant, in the order received. */
    public List<Delivery> of(String tenant) {
        return of(tenant, "reservation.");
    }

    /** The stock events of one tenant, in the order received. */
    public List<Delivery> stockOf(String tenant) {
        return of(tenant, "stock.");
    }

    /** Every event of one tenant, in the order received. */
    public List<Delivery> allOf(String tenant) {
        return of(tenant, "");
    }

    /**
     * Every delivery of one tenant, not held to the contract: for tests that relay hand-made outbox rows, which are not
     * Stockhold's events.
     */
    public List<Delivery> handMadeOf(String tenant) {
        return deliveries.stream().filter(d -> tenant.equals(d.tenant())).toList();
    }

    /** Each event read is held to the published contract ({@link EventContract}) before a test sees it. */
    private List<Delivery> of(String tenant, String routingPrefix) {
        List<Delivery> mine = new ArrayList<>();
        deliveries.forEach(d -> {
            if (tenant.equals(d.tenant()) && d.routingKey() != null && d.routingKey().startsWith(routingPrefix)) {
                EventContract.assertConforms(d.event());
                mine.add(d);
            }
        });
        return mine;
    }

    @Override
    public void close() {
        closed = true;
        keeper.interrupt();
        try (Connection c = factory().newConnection(); Channel ch = c.createChannel()) {
            ch.queueDelete(queue);
        } catch (IOException | TimeoutException | RuntimeException e) {
            // best effort: the broker may be down in a failed test
        }
        synchronized (this) {
            try {
                if (connection != null && connection.isOpen()) {
                    connection.close();
                }
            } catch (IOException | RuntimeException e) {
                // already closed
            }
        }
    }
}
