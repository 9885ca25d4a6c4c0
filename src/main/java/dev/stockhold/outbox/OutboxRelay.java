package dev.stockhold.outbox;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import dev.stockhold.StockholdConfig;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Turns "the database committed" into "the broker confirmed". One worker thread per process: it wakes on a nudge
 * after each local commit, or every poll interval for rows written by other replicas, and drains claimable events
 * batch by batch. A row is marked published only after the broker confirmed it; a relay that dies leaves its rows
 * leased until the lease expires, and they are then published again with the same id (at least once).
 */
@ApplicationScoped
public class OutboxRelay {

    private final StockholdConfig config;
    private final OutboxStore store;
    private final EventPublisher publisher;
    private final RelaySignal signal;
    private final OutboxMetrics metrics;
    private final String relayId = instanceName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    private volatile boolean running;
    private Thread worker;
    private volatile long lastFailureLogNanos;
    private final AtomicLong failuresSinceLog = new AtomicLong();

    OutboxRelay(StockholdConfig config, OutboxStore store, EventPublisher publisher, RelaySignal signal, OutboxMetrics metrics) {
        this.config = config;
        this.store = store;
        this.publisher = publisher;
        this.signal = signal;
        this.metrics = metrics;
    }

    void start(@Observes StartupEvent event) {
        if (!config.relay().enabled()) {
            Log.info("Outbox relay disabled (stockhold.relay.enabled=false)");
            return;
        }
        running = true;
        worker = new Thread(this::loop, "outbox-relay");
        worker.setDaemon(true);
        worker.start();
        Log.infof("Outbox relay %s started, target %s", relayId, publisher.target());
    }

    /** Graceful shutdown: finish the batch in hand, then hand the leases back so another replica goes on at once. */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (worker == null) {
            return;
        }
        running = false;
        signal.nudge();
        worker.join(config.relay().publishTimeout().plusSeconds(2).toMillis());
        int released = store.releaseLeases(relayId);
        Log.infof("Outbox relay %s stopped, %d leases released", relayId, released);
    }

    private void loop() {
        while (running) {
            try {
                Batch batch;
                do {
                    batch = relayOnce(relayId, publisher);
                } while (running && batch.claimed() == config.relay().batchSize() && batch.allConfirmed());
                // a backlog is drained at once; otherwise the next claim waits for a nudge plus the coalescing
                // window, so under load each claim and mark carries many events instead of one or two
                signal.await(config.relay().pollInterval(), config.relay().coalesce());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // the database is unreachable, for instance: rows stay leased or pending, nothing is lost
                Log.warnf("Outbox relay iteration failed: %s", e.getMessage());
                sleepQuietly(config.relay().pollInterval());
            }
        }
    }

    /** One claim, publish and mark cycle. Package-private so tests can play several relays, or a dying one. */
    Batch relayOnce(String relay, EventPublisher via) {
        List<OutboxEvent> claimed = store.claim(relay, config.relay().batchSize(), config.relay().lease());
        if (claimed.isEmpty()) {
            return new Batch(0, 0);
        }
        Map<UUID, PublishFailure> failures;
        try {
            failures = via.publish(claimed, config.relay().publishTimeout());
        } catch (RuntimeException e) {
            failures = EventPublisher.allFailed(claimed, PublishFailure.transientFailure("error", e.getClass().getSimpleName()));
        }
        Instant now = Instant.now();
        Map<UUID, PublishFailure> failed = failures;
        List<OutboxEvent> confirmed = claimed.stream().filter(e -> !failed.containsKey(e.id())).toList();
        store.markPublished(relay, confirmed.stream().map(OutboxEvent::id).toList());
        confirmed.forEach(e -> metrics.published(e, now));
        if (!failures.isEmpty()) {
            recordFailures(relay, claimed, failures, now);
        }
        return new Batch(claimed.size(), confirmed.size());
    }

    private void recordFailures(String relay, List<OutboxEvent> claimed, Map<UUID, PublishFailure> failures, Instant now) {
        StockholdConfig.Outbox outbox = config.outbox();
        Map<OutboxEvent, Instant> retryAt = new LinkedHashMap<>();
        for (OutboxEvent event : claimed) {
            PublishFailure failure = failures.get(event.id());
            if (failure == null) {
                continue;
            }
            int attempt = event.attempts() + 1;
            retryAt.put(event, now.plus(Backoff.delay(event.id(), attempt, outbox.backoffInitial(), outbox.backoffMax())));
            metrics.failed(failure);
            if (failure.permanent() || attempt >= outbox.maxAttempts()) {
                Log.errorf("Outbox event %s (reservation %s, tenant %s) is DEAD after %d attempts: %s", event.id(),
                        event.aggregateId(), event.tenantId(), attempt, failure.describe());
            }
        }
        store.markFailed(relay, retryAt, failures, outbox.maxAttempts());
        logFailures(retryAt.size(), failures.values().iterator().next());
    }

    /** During an outage every batch fails: one WARN line per 10 seconds with the count, not one per batch. */
    private void logFailures(int failed, PublishFailure example) {
        long total = failuresSinceLog.addAndGet(failed);
        long now = System.nanoTime();
        if (now - lastFailureLogNanos > Duration.ofSeconds(10).toNanos()) {
            lastFailureLogNanos = now;
            failuresSinceLog.set(0);
            Log.warnf("Outbox relay: %d events not confirmed since the last report (latest: %s); retrying with backoff",
                    total, example.describe());
        }
    }

    public String relayId() {
        return relayId;
    }

    /** How one cycle went. */
    record Batch(int claimed, int confirmed) {
        boolean allConfirmed() {
            return claimed == confirmed;
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String instanceName() {
        String fromEnv = System.getenv("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "stockhold";
        }
    }
}
