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

import dev.stockhold.Causes;
import dev.stockhold.events.EventType;
import io.quarkus.logging.Log;

/**
 * RabbitMQ: durable topic exchange {@code stockhold.events}, persistent messages, {@code message_id} = event id,
 * CloudEvents structured JSON, publisher confirms. The exchange has the alternate exchange {@code stockhold.unrouted}
 * (fanout, bound to the durable queue of the same name), so an event no consumer queue is bound for is kept there
 * instead of failing. Messages are also {@code mandatory}: should the alternate exchange be missing, an unroutable
 * event comes back as a per-event failure rather than vanishing.
 */
public class RabbitPublisher implements EventPublisher {

    private final ConnectionFactory factory;
    /** Nacked delivery tags; a negative tag means "this and every earlier tag" (multiple=true). */
    private final Set<Long> nacked = ConcurrentHashMap.newKeySet();
    private final Map<String, String> returned = new ConcurrentHashMap<>();
    private Connection connection;
    private Channel channel;
    private volatile boolean alternateExchangeMissing;

    public RabbitPublisher(String host, int port, String username, String password, String virtualHost) {
        factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(username);
        factory.setPassword(password);
        factory.setVirtualHost(virtualHost);
        factory.setConnectionTimeout(5_000);
        factory.setHandshakeTimeout(5_000);
        // the relay reconnects by itself (probe); the client's own recovery would replay publishes behind our back
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
    }

    @Override
    public synchronized Sent send(List<ClaimedRow> batch) {
        Map<UUID, PublishFailure> failures = new LinkedHashMap<>();
        Map<Long, UUID> byTag = new HashMap<>();
        Channel ch;
        try {
            ch = openChannel();
            nacked.clear();
            returned.clear();
            for (ClaimedRow event : batch) {
                EventType type = EventType.ofType(event.type()).orElse(null);
                if (type == null) {
                    failures.put(event.id(), PublishFailure.permanent("serialization", "unknown event type " + event.type()));
                    continue;
                }
                byTag.put(ch.getNextPublishSeqNo(), event.id());
                ch.basicPublish(RabbitTopology.EXCHANGE, type.routingKey(), true, properties(event),
                        event.payload().getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            // connection refused or lost, channel closed by the broker, broker shutting down
            reset();
            return Sent.answered(new PublishOutcome.Unreachable("unreachable", Causes.rootMessage(e)));
        }
        return timeout -> awaitConfirms(ch, byTag, failures, timeout);
    }

    private synchronized PublishOutcome awaitConfirms(Channel ch, Map<Long, UUID> byTag, Map<UUID, PublishFailure> failures,
            Duration timeout) {
        try {
            if (!byTag.isEmpty() && !ch.waitForConfirms(Math.max(1, timeout.toMillis()))) {
                byTag.forEach((tag, id) -> {
                    if (nacked.contains(tag) || nacked.stream().anyMatch(n -> n < 0 && tag <= -n)) {
                        failures.put(id, PublishFailure.transientFailure("nack", "the broker nacked the message"));
                    }
                });
            }
            // basic.return precedes the confirm of the same message, so every return has arrived by now
            returned.forEach((id, why) -> failures.put(UUID.fromString(id),
                    PublishFailure.transientFailure("unroutable",
                            "no queue bound for this routing key and no alternate exchange (" + why + ")")));
            return new PublishOutcome.Answered(failures);
        } catch (TimeoutException e) {
            reset();
            return new PublishOutcome.Unreachable("timeout", "no confirm within " + timeout);
        } catch (RuntimeException e) {
            // the channel or connection closed while waiting (ShutdownSignalException)
            reset();
            return new PublishOutcome.Unreachable("unreachable", Causes.rootMessage(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reset();
            return new PublishOutcome.Unreachable("interrupted", "relay stopping");
        }
    }

    @Override
    public synchronized boolean probe() {
        try {
            openChannel();
            return true;
        } catch (IOException | RuntimeException e) {
            reset();
            return false;
        }
    }

    /** Set when {@code stockhold.events} was found declared without the alternate exchange (docs/operations.md). */
    @Override
    public java.util.Optional<String> topologyWarning() {
        return alternateExchangeMissing
                ? java.util.Optional.of("exchange " + RabbitTopology.EXCHANGE + " has no alternate exchange " + RabbitTopology.UNROUTED
                        + ": unrouted events are retried, then DEAD")
                : java.util.Optional.empty();
    }

    private AMQP.BasicProperties properties(ClaimedRow event) {
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
        RabbitTopology.Declared declared = RabbitTopology.declare(connection);
        if (!declared.alternateExchange() && !alternateExchangeMissing) {
            Log.warnf("RabbitMQ exchange %s was declared without the alternate-exchange argument %s (by an earlier release). "
                    + "Publishing goes on; unless a policy gives it one, an event no queue is bound for is returned and retried until it is DEAD. "
                    + "Add it without downtime: %s", RabbitTopology.EXCHANGE, RabbitTopology.UNROUTED, RabbitTopology.upgradeCommand());
        }
        alternateExchangeMissing = !declared.alternateExchange();
        channel = declared.channel();
        channel.confirmSelect();
        channel.addConfirmListener((tag, multiple) -> {
        }, (tag, multiple) -> nacked.add(multiple ? -tag : tag));
        channel.addReturnListener(r -> returned.put(r.getProperties().getMessageId(), r.getReplyText()));
        Log.infof("Relay connected to RabbitMQ %s:%d, exchange %s", factory.getHost(), factory.getPort(), RabbitTopology.EXCHANGE);
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

    @Override
    public String target() {
        return "rabbitmq";
    }

    @Override
    public synchronized void close() {
        reset();
    }
}
