package dev.stockhold.outbox;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** The in-process relay is off: tests play the relays themselves (several at once, a dying one, a failing broker). */
public class ManualRelayProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "stockhold.relay.enabled", "false",
                "stockhold.relay.lease", "2s",
                "stockhold.outbox.max-attempts", "3",
                "stockhold.outbox.backoff-initial", "10ms",
                "stockhold.outbox.backoff-max", "50ms");
    }
}
