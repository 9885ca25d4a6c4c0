package dev.stockhold.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The run's consumer: a durable queue bound to {@code stockhold.events} with {@code #}, declared before the replicas
 * start, so nothing published during the run is unroutable, and a broker restart loses nothing. Every delivery is
 * recorded before it is acknowledged (manual acks): a delivery lost with a dropped connection is redelivered, which
 * the record shows as a duplicate, never as a gap. Reconnects by itself after the broker comes back.
 */
final class EventLog implements AutoCloseable {

    /** One delivery, in the order the consumer received it. */
    record Received(long position, String messageId, String routingKey, String eventId, String type, String subject,
            String tenant) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String queue = "stockhold-chaos-" + UUID.randomUUID();
    private final List<Received> received = new ArrayList<>();
    private final Thread keeper;
    private volatile boolean closed;
    private Connection connection;

    EventLog() throws IOException, TimeoutException {
        try (Connection c = factory().newConnection(); Channel ch = c.createChannel()) {
            ch.exchangeDeclare("stockhold.events", "topic", true);
            ch.queueDeclare(queue, true, false, false, Map.of());
            ch.queueBind(queue, "stockhold.events", "#");
        }
        connect();
        keeper = new Thread(this::keepConnected, "chaos-consumer");
        keeper.setDaemon(true);
        keeper.start();
    }

    private static ConnectionFactory factory() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(5672);
        factory.setAutomaticRecoveryEnabled(false);
        factory.setConnectionTimeout(2_000);
        return factory;
    }

    private synchronized void connect() throws IOException, TimeoutException {
        if (connection != null && connection.isOpen()) {
            return;
        }
        connection = factory().newConnection();
        Channel ch = connection.createChannel();
        ch.basicQos(200);
        ch.basicConsume(queue, false, (tag, message) -> {
            JsonNode event = JSON.readTree(new String(message.getBody(), StandardCharsets.UTF_8));
            record(message.getProperties().getMessageId(), message.getEnvelope().getRoutingKey(), event);
            ch.basicAck(message.getEnvelope().getDeliveryTag(), false);
        }, tag -> {
        });
    }

    private synchronized void record(String messageId, String routingKey, JsonNode event) {
        received.add(new Received(received.size(), messageId, routingKey, event.path("id").asText(),
                event.path("type").asText(), event.path("subject").asText(), event.path("tenantid").asText()));
    }

    private void keepConnected() {
        while (!closed) {
            try {
                connect();
            } catch (IOException | TimeoutException | RuntimeException e) {
                // broker down: try again shortly
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    synchronized List<Received> of(String tenant) {
        return received.stream().filter(r -> tenant.equals(r.tenant())).toList();
    }

    @Override
    public void close() {
        closed = true;
        keeper.interrupt();
        synchronized (this) {
            try {
                if (connection != null && connection.isOpen()) {
                    connection.close();
                }
            } catch (IOException | RuntimeException e) {
                // already gone
            }
        }
        try (Connection c = factory().newConnection(); Channel ch = c.createChannel()) {
            ch.queueDelete(queue);
        } catch (IOException | TimeoutException | RuntimeException e) {
            // best effort
        }
    }
}
