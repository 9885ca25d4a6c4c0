package dev.stockhold.outbox;

import java.util.HashMap;
import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The relay as it runs, with a retry schedule far shorter than any outage in the tests: three attempts, 10-50 ms
 * apart, and a broker probe capped at 500 ms. Were an outage charged to the events, every one of them would be DEAD
 * within a fraction of a second. The other relay profiles start from this one and add their own settings.
 */
public class ShortRetryScheduleProfile implements QuarkusTestProfile {

    /** The attempts an event gets before it is DEAD, under this profile. */
    static final int MAX_ATTEMPTS = 3;
    /** The paused relay's failed probes of the broker: an outage as the relay lives it, counted instead of timed. */
    static final String PROBES = "stockhold_outbox_broker_probes_total";
    static final String FAILED = "outcome=\"failed\"";

    @Override
    public final Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(Map.of(
                "stockhold.outbox.max-attempts", String.valueOf(MAX_ATTEMPTS),
                "stockhold.outbox.backoff-initial", "10ms",
                "stockhold.outbox.backoff-max", "50ms",
                "stockhold.relay.broker-probe-max", "500ms"));
        overrides.putAll(more());
        return overrides;
    }

    /** A profile's own settings, over the shared ones. */
    protected Map<String, String> more() {
        return Map.of();
    }
}
