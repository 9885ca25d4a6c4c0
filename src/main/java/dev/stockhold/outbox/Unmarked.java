package dev.stockhold.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.quarkus.logging.Log;

/**
 * Events the broker confirmed that one relay has not marked PUBLISHED yet: marked together, in one statement, once
 * the oldest has waited the mark delay, a batch's worth is waiting, a failure is marked, a claim is due, or the
 * relay stops. Until then their rows stay leased to the relay, so no other relay publishes them again. Used by one
 * thread at a time.
 */
final class Unmarked {
    private final RelayStore store;
    private final OutboxMetrics metrics;
    private final int batchSize;
    private final int maxAttempts;
    final String relay;
    private final long delayNanos;
    private final List<RelayStore.Mark> marks = new ArrayList<>();
    private long oldestNanos;

    Unmarked(RelayStore store, OutboxMetrics metrics, int batchSize, int maxAttempts, String relay, Duration delay) {
        this.store = store;
        this.metrics = metrics;
        this.batchSize = batchSize;
        this.maxAttempts = maxAttempts;
        this.relay = relay;
        this.delayNanos = delay.toNanos();
    }

    void add(UUID id) {
        if (marks.isEmpty()) {
            oldestNanos = System.nanoTime();
        }
        marks.add(RelayStore.Mark.confirmed(id));
    }

    boolean isEmpty() {
        return marks.isEmpty();
    }

    int size() {
        return marks.size();
    }

    boolean due() {
        return !marks.isEmpty() && (marks.size() >= batchSize || nanosUntilDue() <= 0);
    }

    long nanosUntilDue() {
        return oldestNanos + delayNanos - System.nanoTime();
    }

    List<RelayStore.Marked> flush() {
        return flush(List.of());
    }

    /** Marks the confirmed events in hand, and {@code failed} with them. @return the rows changed */
    List<RelayStore.Marked> flush(List<RelayStore.Mark> failed) {
        if (marks.isEmpty() && failed.isEmpty()) {
            return List.of();
        }
        List<RelayStore.Mark> all = new ArrayList<>(marks.size() + failed.size());
        all.addAll(marks);
        all.addAll(failed);
        List<RelayStore.Marked> marked = store.mark(relay, all, maxAttempts);
        marks.clear();
        if (marked.size() < all.size()) {
            // the lease ran out before the mark: another relay may publish these events again
            metrics.leasesLost(all.size() - marked.size());
            Log.warnf("Outbox relay %s: %d marks found their lease gone; those events may be published again", relay,
                    all.size() - marked.size());
        }
        return marked;
    }
}
