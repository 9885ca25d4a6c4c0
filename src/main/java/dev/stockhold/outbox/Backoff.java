package dev.stockhold.outbox;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Exponential backoff with jitter derived from the event id: retries of many events spread out, and the delay of one
 * event's n-th retry is the same on every replica and every run.
 */
public final class Backoff {

    private Backoff() {
    }

    /** @param attempt the failed attempt just made, from 1 */
    public static Duration delay(UUID eventId, int attempt, Duration initial, Duration max) {
        int doublings = Math.min(Math.max(attempt - 1, 0), 30);
        long ceiling = Math.min(max.toMillis(), initial.toMillis() * (1L << doublings));
        double jitter = new SplittableRandom(eventId.getMostSignificantBits() ^ eventId.getLeastSignificantBits() ^ attempt)
                .nextDouble(0.5, 1.0);
        return Duration.ofMillis(Math.max(1, (long) (ceiling * jitter)));
    }
}
