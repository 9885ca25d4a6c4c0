package dev.stockhold.support;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import dev.stockhold.outbox.RabbitTopology;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * The local RabbitMQ the tests publish to, on the current topology: an events exchange left by an earlier release
 * without its alternate exchange is deleted (tests bind their own queues afterwards, so nothing is lost) and
 * declared again, and the unrouted queue is emptied so it holds only this run's events.
 * {@code AlternateExchangeTest} covers the upgrade path on a broker of its own (a vhost).
 */
public class RabbitBroker implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("localhost");
        factory.setConnectionTimeout(2_000);
        try (Connection c = factory.newConnection("stockhold-tests")) {
            if (!RabbitTopology.declare(c).alternateExchange()) {
                c.createChannel().exchangeDelete(RabbitTopology.EXCHANGE);
                RabbitTopology.declare(c);
            }
            c.createChannel().queuePurge(RabbitTopology.UNROUTED);
        } catch (IOException | TimeoutException e) {
            throw new IllegalStateException("Tests need RabbitMQ at localhost:5672: " + e.getMessage(), e);
        }
        return Map.of();
    }

    @Override
    public void stop() {
        // the broker outlives the run
    }
}
