package dev.stockhold.outbox;

import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

/** Whether this replica's relay can reach the broker, and since when it cannot: for health details and metrics. */
@ApplicationScoped
public class BrokerState {

    private volatile Instant unreachableSince;
    private volatile String lastError;

    void unreachable(PublishOutcome.Unreachable why, Instant at) {
        lastError = why.describe();
        if (unreachableSince == null) {
            unreachableSince = at;
        }
    }

    void reachable() {
        unreachableSince = null;
    }

    public Optional<Instant> unreachableSince() {
        return Optional.ofNullable(unreachableSince);
    }

    public String lastError() {
        return lastError;
    }
}
