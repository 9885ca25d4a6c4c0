package dev.stockhold.outbox;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkus.logging.Log;

/** What the relay logs of the broker's refusals: every DEAD decision at once, the retried refusals at most every 10 s. */
final class RelayFailureLog {

    private volatile long lastFailureLogNanos;
    private final AtomicLong failuresSinceLog = new AtomicLong();

    /** DEAD is decided by the database (OutboxDialect.MARK_FAILED); this only reports what it decided. */
    void report(List<ClaimedRow> batch, PublishOutcome.Answered answered, List<RelayStore.Marked> marked) {
        List<UUID> dead = marked.stream().filter(m -> "DEAD".equals(m.status())).map(RelayStore.Marked::id).toList();
        if (!dead.isEmpty()) {
            ClaimedRow first = batch.stream().filter(e -> e.id().equals(dead.get(0))).findFirst().orElseThrow();
            Log.errorf("%d outbox events are DEAD (first: %s of aggregate %s, tenant %s: %s); see GET /v1/admin/outbox/dead",
                    dead.size(), first.id(), first.aggregateId(), first.tenantId(), answered.failures().get(first.id()).describe());
        }
        long total = failuresSinceLog.addAndGet(answered.failures().size());
        long now = System.nanoTime();
        if (now - lastFailureLogNanos > Duration.ofSeconds(10).toNanos()) {
            lastFailureLogNanos = now;
            failuresSinceLog.set(0);
            Log.warnf("Outbox relay: %d events refused by the broker since the last report (latest: %s); retrying with backoff",
                    total, answered.failures().values().iterator().next().describe());
        }
    }
}
