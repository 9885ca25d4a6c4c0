package dev.stockhold.outbox;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import dev.stockhold.events.EventType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;

/**
 * The outbox metrics (see the metrics table in docs/operations.md). Backlog gauges are refreshed by
 * {@link OutboxMaintenance}, not on every scrape.
 */
@ApplicationScoped
@Startup
public class OutboxMetrics {

    static final List<String> FAILURE_REASONS = List.of("nack", "timeout", "unreachable", "unroutable", "serialization",
            "interrupted", "error");

    /** The paused relay's probes of the broker, by outcome (answered, failed). */
    static final String BROKER_PROBES = "stockhold.outbox.broker.probes";

    /** Confirmed events by kind (the routing key: reservation.created, stock.depleted, ...). */
    static final String EVENTS_PUBLISHED = "stockhold.events.published";

    private final MeterRegistry registry;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong dead = new AtomicLong();
    private final AtomicLong oldestPendingAgeMillis = new AtomicLong();
    private final Timer lag;
    private final Timer createdToConfirm;
    private final Timer publishCall;
    /** Every counter is registered once, here, and kept: an increment looks nothing up in the registry. */
    private final Counter published;
    private final Map<EventType, Counter> publishedByType = new EnumMap<>(EventType.class);
    private final Map<String, Counter> failures;
    private final Counter leasesLost;
    private final Counter probesAnswered;
    private final Counter probesFailed;

    OutboxMetrics(MeterRegistry registry, BrokerState broker) {
        this.registry = registry;
        registry.gauge("stockhold.outbox.pending", pending);
        registry.gauge("stockhold.outbox.dead", dead);
        registry.gauge("stockhold.outbox.oldest.pending.age.seconds", oldestPendingAgeMillis, v -> v.get() / 1000.0);
        published = registry.counter("stockhold.outbox.published");
        for (EventType type : EventType.values()) {
            publishedByType.put(type, registry.counter(EVENTS_PUBLISHED, "type", type.routingKey()));
        }
        failures = FAILURE_REASONS.stream().collect(Collectors.toUnmodifiableMap(Function.identity(),
                reason -> registry.counter("stockhold.outbox.publish.failures", "reason", reason)));
        registry.gauge("stockhold.outbox.broker.reachable", broker, b -> b.unreachableSince().isEmpty() ? 1 : 0);
        registry.gauge("stockhold.outbox.broker.unreachable.since.seconds", broker,
                b -> b.unreachableSince().map(since -> since.toEpochMilli() / 1000.0).orElse(0.0));
        lag = Timer.builder("stockhold.outbox.publish.lag")
                .description("From the commit that wrote the event (in this replica) to the broker's confirm")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
        publishCall = Timer.builder("stockhold.outbox.publish.call")
                .description("One batch's publish call, from the first send to the broker's last answer or the timeout")
                .register(registry);
        leasesLost = registry.counter("stockhold.outbox.leases.lost");
        probesAnswered = registry.counter(BROKER_PROBES, "outcome", "answered");
        probesFailed = registry.counter(BROKER_PROBES, "outcome", "failed");
        createdToConfirm = Timer.builder("stockhold.outbox.created.to.confirm")
                .description("From the start of the transaction that wrote the event (any replica) to the broker's confirm")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
    }

    /** One confirmed event: {@code committedAt} is its commit's nano time when this replica wrote it. */
    void published(ClaimedRow event, Instant confirmedAt, long confirmedNanos, OptionalLong committedAt) {
        published.increment();
        EventType.ofType(event.type()).ifPresent(type -> publishedByType.get(type).increment());
        createdToConfirm.record(Duration.between(event.createdAt(), confirmedAt));
        committedAt.ifPresent(at -> lag.record(Math.max(0, confirmedNanos - at), TimeUnit.NANOSECONDS));
    }

    void publishCall(long nanos) {
        publishCall.record(nanos, TimeUnit.NANOSECONDS);
    }

    void probed(boolean answered) {
        (answered ? probesAnswered : probesFailed).increment();
    }

    /** Marks that found their rows no longer leased to this relay: the claim outlived its lease (must stay 0). */
    void leasesLost(int events) {
        leasesLost.increment(events);
    }

    void failed(String reason, int events) {
        Counter counter = failures.get(reason);
        // a reason missing from FAILURE_REASONS is still counted, under its own tag
        (counter != null ? counter : registry.counter("stockhold.outbox.publish.failures", "reason", reason)).increment(events);
    }

    void refresh(OutboxBacklog.OutboxStats stats) {
        pending.set(stats.pending());
        dead.set(stats.dead());
        oldestPendingAgeMillis.set((long) (stats.oldestPendingAgeSeconds() * 1000));
    }
}
