package dev.stockhold.outbox;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The relay as it runs, with a retry schedule far shorter than any outage in the tests: three attempts, 10-50 ms
 * apart. Were an outage charged to the events, every one of them would be DEAD within a fraction of a second.
 */
public class ShortRetryScheduleProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "stockhold.outbox.max-attempts", "3",
                "stockhold.outbox.backoff-initial", "10ms",
                "stockhold.outbox.backoff-max", "50ms",
                "stockhold.relay.broker-probe-max", "500ms");
    }
}
