package dev.stockhold.outbox;

import java.time.Duration;
import java.util.Collection;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * When the transactions of this replica that wrote outbox events committed (the after-commit hook's clock), so that
 * {@code stockhold_outbox_publish_lag_seconds} measures commit to broker confirm. Events written by another replica
 * have no entry here; their entries age out. Bounded: past {@link #MAX_ENTRIES} new commits are not recorded.
 */
@ApplicationScoped
public class CommitTimes {

    static final int MAX_ENTRIES = 100_000;
    private static final long MAX_AGE_NANOS = Duration.ofMinutes(10).toNanos();

    private final ConcurrentHashMap<UUID, Long> committedAt = new ConcurrentHashMap<>();

    void committed(Collection<UUID> eventIds, long nanoTime) {
        if (committedAt.size() + eventIds.size() > MAX_ENTRIES) {
            return;
        }
        eventIds.forEach(id -> committedAt.put(id, nanoTime));
    }

    /** The commit time of an event this replica wrote, removed on the way out. */
    OptionalLong take(UUID eventId) {
        Long at = committedAt.remove(eventId);
        return at == null ? OptionalLong.empty() : OptionalLong.of(at);
    }

    /** Drops entries of events that another replica published. */
    void forgetOlderThanMaxAge(long nowNanos) {
        committedAt.values().removeIf(at -> nowNanos - at > MAX_AGE_NANOS);
    }
}
