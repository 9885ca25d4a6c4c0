package dev.stockhold.outbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkus.logging.Log;

/**
 * RabbitMQ: durable topic exchange {@code stockhold.events}, persistent messages, {@code message_id} = event id,
 * CloudEvents structured JSON, publisher confirms, and {@code mandatory} so an event no queue would receive comes
 * back as unroutable instead of vanishing.
 */
public class RabbitPublisher implements EventPublisher {

    public static final String EXCHANGE = "stockhold.events";

    private final ConnectionFactory factory;
    /** Nacked delivery tags; a negative tag means "this and every earlier tag" (multiple=true). */
    private final Set<Long> nacked = ConcurrentHashMap.newKeySet();
    private final Map<String, String> returned = new ConcurrentHashMap<>();
    private Connection connection;
    private Channel channel;
    private volatile boolean reachable = true;

    public RabbitPublisher(String host, int port, String username, String password, String virtualHost) {
        factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(username);
        factory.setPassword(password);
        factory.setVirtualHost(virtualHost);
        factory.setConnectionTimeout(5_000);
        factory.setHandshakeTimeout(5_000);
        // the relay reconnects on its next batch; the client's own recovery would replay publishes behind our back
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
    }

    @Override
    public synchronized Map<UUID, PublishFailure> publish(List<OutboxEvent> batch, Duration timeout) {
        Map<UUID, PublishFailure> failures = new LinkedHashMap<>();
        Map<Long, UUID> byTag = new HashMap<>();
        try {
            Channel ch = openChannel();
            nacked.clear();
            returned.clear();
            for (OutboxEvent event : batch) {
                EventType type = EventType.ofType(event.type()).orElse(null);
                if (type == null) {
                    failures.put(event.id(), PublishFailure.permanent("serialization", "unknown event type " + event.type()));
                    continue;
                }
                byTag.put(ch.getNextPublishSeqNo(), event.id());
                ch.basicPublish(EXCHANGE, type.routingKey(), true, properties(event), event.payload().getBytes(StandardCharsets.UTF_8));
            }
            if (!byTag.isEmpty() && !ch.waitForConfirms(timeout.toMillis())) {
                byTag.forEach((tag, id) -> {
                    if (nacked.contains(tag) || nacked.stream().anyMatch(n -> n < 0 && tag <= -n)) {
                        failures.put(id, PublishFailure.transientFailure("nack", "the broker nacked the message"));
                    }
                });
            }
            // basic.return precedes the confirm of the same message, so every return has arrived by now
            returned.forEach((id, why) -> failures.put(UUID.fromString(id),
                    PublishFailure.permanent("unroutable", "no queue bound for this routing key (" + why + ")")));
            reachable = true;
            return failures;
        } catch (TimeoutException e) {
            reset();
            return EventPublisher.allFailed(batch, PublishFailure.transientFailure("timeout", "no confirm within " + timeout));
        } catch (IOException | RuntimeException e) {
            // connection refused or lost, channel closed by the broker, broker shutting down
            reset();
            reachable = false;
            return EventPublisher.allFailed(batch, PublishFailure.transientFailure("unreachable", describe(e)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reset();
            return EventPublisher.allFailed(batch, PublishFailure.transientFailure("interrupted", "relay stopping"));
        }
    }

    private AMQP.BasicProperties properties(OutboxEvent event) {
        Map<String, Object> headers = new HashMap<>();
        headers.put("tenantid", event.tenantId());
        headers.put("ce_type", event.type());
        if (event.traceparent() != null) {
            headers.put("traceparent", event.traceparent());
        }
        return new AMQP.BasicProperties.Builder()
                .messageId(event.id().toString())
                .contentType(CloudEvent.MEDIA_TYPE)
                .contentEncoding("UTF-8")
                .deliveryMode(2)
                .type(event.type())
                .timestamp(java.util.Date.from(event.createdAt()))
                .appId("stockhold")
                .headers(headers)
                .build();
    }

    private Channel openChannel() throws IOException {
        if (channel != null && channel.isOpen()) {
            return channel;
        }
        reset();
        try {
            connection = factory.newConnection("stockhold-relay");
        } catch (TimeoutException e) {
            throw new IOException("connection timed out", e);
        }
        channel = connection.createChannel();
        channel.exchangeDeclare(EXCHANGE, "topic", true);
        channel.confirmSelect();
        channel.addConfirmListener((tag, multiple) -> {
        }, (tag, multiple) -> nacked.add(multiple ? -tag : tag));
        channel.addReturnListener(r -> returned.put(r.getProperties().getMessageId(), r.getReplyText()));
        Log.infof("Relay connected to RabbitMQ %s:%d, exchange %s", factory.getHost(), factory.getPort(), EXCHANGE);
        return channel;
    }

    private void reset() {
        try {
            if (connection != null) {
                connection.abort(1_000);
            }
        } catch (RuntimeException ignored) {
            // already gone
        }
        connection = null;
        channel = null;
    }

    private static String describe(Exception e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    @Override
    public boolean lastPublishReachedBroker() {
        return reachable;
    }

    @Override
    public String target() {
        return "rabbitmq";
    }

    @Override
    public synchronized void close() {
        reset();
    }
}
