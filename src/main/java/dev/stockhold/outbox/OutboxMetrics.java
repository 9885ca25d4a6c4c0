package dev.stockhold.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;

/** The outbox metrics of contract §8. Gauges are refreshed by {@link OutboxMaintenance}, not on every scrape. */
@ApplicationScoped
@Startup
public class OutboxMetrics {

    static final List<String> FAILURE_REASONS = List.of("nack", "timeout", "unreachable", "unroutable", "serialization",
            "interrupted", "error");

    private final MeterRegistry registry;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong dead = new AtomicLong();
    private final AtomicLong oldestPendingAgeMillis = new AtomicLong();
    private final Timer lag;

    OutboxMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("stockhold.outbox.pending", pending);
        registry.gauge("stockhold.outbox.dead", dead);
        registry.gauge("stockhold.outbox.oldest.pending.age.seconds", oldestPendingAgeMillis, v -> v.get() / 1000.0);
        registry.counter("stockhold.outbox.published");
        FAILURE_REASONS.forEach(reason -> registry.counter("stockhold.outbox.publish.failures", "reason", reason));
        lag = Timer.builder("stockhold.outbox.publish.lag")
                .description("From the commit that wrote the event to the broker's confirm")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
    }

    void published(OutboxEvent event, Instant confirmedAt) {
        registry.counter("stockhold.outbox.published").increment();
        lag.record(Duration.between(event.createdAt(), confirmedAt));
    }

    void failed(PublishFailure failure) {
        registry.counter("stockhold.outbox.publish.failures", "reason", failure.reason()).increment();
    }

    void refresh(OutboxStore.OutboxStats stats) {
        pending.set(stats.pending());
        dead.set(stats.dead());
        oldestPendingAgeMillis.set((long) (stats.oldestPendingAgeSeconds() * 1000));
    }
}
