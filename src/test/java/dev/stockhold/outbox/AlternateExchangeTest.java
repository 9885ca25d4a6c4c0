package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;

/**
 * The events exchange with its alternate exchange, on a broker of its own (a fresh RabbitMQ virtual host per test,
 * made with rabbitmqctl): an event no queue is bound for is confirmed and kept in {@code stockhold.unrouted}; an
 * exchange declared by an earlier release without the alternate exchange is detected and publishing goes on.
 */
class AlternateExchangeTest {

    private final String vhost = "stockhold-ae-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeEach
    void createVirtualHost() throws Exception {
        rabbitmqctl("add_vhost", vhost);
        rabbitmqctl("set_permissions", "-p", vhost, "guest", ".*", ".*", ".*");
    }

    @AfterEach
    void deleteVirtualHost() throws Exception {
        rabbitmqctl("delete_vhost", vhost);
    }

    @Test
    void shouldKeepAnEventNoQueueIsBoundForInTheUnroutedQueueOnAFreshBroker() throws Exception {
        ClaimedRow event = event();
        try (RabbitPublisher publisher = new RabbitPublisher("localhost", 5672, "guest", "guest", vhost)) {
            PublishOutcome outcome = publisher.publish(List.of(event), Duration.ofSeconds(5));

            assertThat(outcome).isEqualTo(PublishOutcome.Answered.allConfirmed());
            assertThat(publisher.topologyWarning()).isEmpty();
        }
        try (Connection c = connect(); Channel ch = c.createChannel()) {
            GetResponse kept = ch.basicGet(RabbitTopology.UNROUTED, true);
            assertThat(kept).as("the event in stockhold.unrouted").isNotNull();
            assertThat(kept.getProps().getMessageId()).isEqualTo(event.id().toString());
            assertThat(kept.getEnvelope().getRoutingKey()).isEqualTo("reservation.created");
        }
    }

    @Test
    void shouldDetectAnExchangeDeclaredWithoutTheAlternateExchangeAndGoOnPublishing() throws Exception {
        String queue = "consumer-" + UUID.randomUUID();
        try (Connection c = connect(); Channel ch = c.createChannel()) {
            ch.exchangeDeclare(RabbitTopology.EXCHANGE, "topic", true); // as an earlier release declared it
            ch.queueDeclare(queue, true, false, false, null);
            ch.queueBind(queue, RabbitTopology.EXCHANGE, "reservation.created");
        }
        ClaimedRow routed = event();
        ClaimedRow unrouted = new ClaimedRow(UUID.randomUUID(), 2, "t", UUID.randomUUID(), "dev.stockhold.reservation.confirmed.v1", "{}",
                0,
                Instant.now(), null, null);
        try (RabbitPublisher publisher = new RabbitPublisher("localhost", 5672, "guest", "guest", vhost)) {
            PublishOutcome outcome = publisher.publish(List.of(routed, unrouted), Duration.ofSeconds(5));

            assertThat(outcome).isInstanceOf(PublishOutcome.Answered.class);
            PublishFailure failure = ((PublishOutcome.Answered) outcome).failures().get(unrouted.id());
            assertThat(((PublishOutcome.Answered) outcome).failures()).containsOnlyKeys(unrouted.id());
            assertThat(failure.reason()).isEqualTo("unroutable");
            assertThat(failure.permanent()).as("retried with backoff: binding a queue in time saves it").isFalse();
            assertThat(publisher.topologyWarning()).hasValueSatisfying(w -> assertThat(w).contains("stockhold.unrouted"));
        }
        try (Connection c = connect(); Channel ch = c.createChannel()) {
            assertThat(ch.basicGet(queue, true).getProps().getMessageId()).isEqualTo(routed.id().toString());
        }
    }

    @Test
    void shouldNotCountADroppedConnectionAsAnEventFailure() {
        try (RabbitPublisher publisher = new RabbitPublisher("localhost", 1, "guest", "guest", vhost)) {
            PublishOutcome outcome = publisher.publish(List.of(event()), Duration.ofSeconds(2));

            assertThat(outcome).isInstanceOf(PublishOutcome.Unreachable.class);
            assertThat(publisher.probe()).isFalse();
        }
    }

    private static ClaimedRow event() {
        UUID id = UUID.randomUUID();
        return new ClaimedRow(id, 1, "t", UUID.randomUUID(), "dev.stockhold.reservation.created.v1",
                "{\"id\":\"" + id + "\"}", 0, Instant.now(), null, null);
    }

    private Connection connect() throws IOException, TimeoutException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("localhost");
        factory.setVirtualHost(vhost);
        return factory.newConnection();
    }

    private static void rabbitmqctl(String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = "rabbitmqctl";
        System.arraycopy(args, 0, command, 1, args.length);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }
}
