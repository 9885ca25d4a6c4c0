package dev.stockhold.outbox;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import dev.stockhold.support.KafkaBroker;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * The relay publishing to a real Kafka broker (support/KafkaBroker, started for this profile), with a lease and a
 * publish timeout short enough that an outage outlasts both, and a retry schedule far shorter than the outage.
 */
public class KafkaProfile extends ShortRetryScheduleProfile {

    /** The broker of the running profile, for tests that kill and restart it. */
    static volatile KafkaBroker broker;
    /** Why the broker did not start, or null: each test of the profile fails with it (see {@link #requireBroker()}). */
    static volatile String brokerFailure;

    /**
     * Fails the calling test with the reason the broker did not start. The resource itself does not throw: a test
     * resource that fails makes Quarkus report a bare InvocationTargetException, and the next profile's application
     * then boots with this profile's settings, so a test of another profile fails for a broker it never used.
     */
    static KafkaBroker requireBroker() {
        if (brokerFailure != null) {
            throw new AssertionError("the Kafka broker of this profile did not start: " + brokerFailure);
        }
        return broker;
    }

    @Override
    protected Map<String, String> more() {
        return Map.of(
                "stockhold.relay.target", "kafka",
                "stockhold.relay.publish-timeout", "2s",
                "stockhold.relay.lease", "4s",
                "stockhold.relay.lease-sweep-interval", "500ms",
                "stockhold.relay.kafka.partitions", "3");
    }

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(Broker.class));
    }

    /** Starts the broker before the service, stops it and removes its data after the profile's tests. */
    public static class Broker implements QuarkusTestResourceLifecycleManager {

        @Override
        public Map<String, String> start() {
            broker = new KafkaBroker();
            brokerFailure = null;
            try {
                broker.start();
            } catch (IllegalStateException | UncheckedIOException e) {
                // the service still boots, against a port nobody listens on; requireBroker() fails every test
                brokerFailure = e.getMessage();
            }
            return Map.of("kafka.bootstrap.servers", broker.bootstrapServers());
        }

        @Override
        public void stop() {
            if (broker != null) {
                broker.close();
            }
        }
    }
}
