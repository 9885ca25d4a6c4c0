package dev.stockhold.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

import io.quarkus.logging.Log;

/** The relay's waits: a sleep, and the pause while the broker is unreachable; both end as soon as the relay stops. */
final class RelayPause {

    private final BooleanSupplier stopping;

    RelayPause(BooleanSupplier stopping) {
        this.stopping = stopping;
    }

    /**
     * Probes the broker with a capped, doubling delay; returns as soon as it answers, or when the relay stops. Runs
     * {@code meanwhile} at least every 100 ms while it waits.
     */
    void untilReachable(BrokerState broker, EventPublisher publisher, OutboxMetrics metrics, Clock clock, Duration initial,
            Duration max, Runnable meanwhile) {
        Instant since = broker.unreachableSince().orElse(clock.instant());
        Log.warnf("Outbox relay paused: broker unreachable (%s); no attempt is charged, probing until it answers",
                broker.lastError());
        Duration delay = initial;
        while (!stopping.getAsBoolean()) {
            sleep(delay, meanwhile);
            if (stopping.getAsBoolean()) {
                return;
            }
            boolean answered = publisher.probe();
            metrics.probed(answered);
            if (answered) {
                broker.reachable();
                Log.infof("Outbox relay resumed: broker reachable again after %d ms", Duration.between(since, clock.instant()).toMillis());
                return;
            }
            delay = delay.multipliedBy(2).compareTo(max) <= 0 ? delay.multipliedBy(2) : max;
        }
    }

    /** Sleeps for {@code duration}, waking every 100 ms at most to see whether the relay stops. */
    void sleep(Duration duration) {
        sleep(duration, () -> {
        });
    }

    private void sleep(Duration duration, Runnable meanwhile) {
        long until = System.nanoTime() + duration.toNanos();
        try {
            while (!stopping.getAsBoolean() && System.nanoTime() < until) {
                meanwhile.run();
                Thread.sleep(Math.min(100, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
