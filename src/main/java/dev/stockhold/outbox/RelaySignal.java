package dev.stockhold.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Between the writers of this replica and its relay. A commit that wrote outbox rows wakes the relay, so events leave
 * without waiting for the poll; and a reservation's created event can skip the relay's claim altogether: while the
 * local relay takes hand-offs ({@link #leaseHolder}), the statement that writes the event leases its row to that relay
 * (as a claim would) and, once committed, {@link #hand}s the event over in memory. A hand-off is only a shortcut: the
 * row is in the database, leased like any claimed row, so if this process dies its lease runs out and any replica
 * claims it (I6, at least once). Only events that open their aggregate are handed (no earlier event of the aggregate
 * can be unpublished, so per-aggregate order holds without the claim's check).
 */
@ApplicationScoped
public class RelaySignal {

    /** Hand-offs waiting for the relay at most; past this the writers lease nothing and the claim takes over. */
    static final int MAX_HANDED = 10_000;

    private final Semaphore nudges = new Semaphore(0);
    /** Set by a commit that wrote rows nobody leased (and initially): the relay's next drain claims. */
    private final AtomicBoolean claimWanted = new AtomicBoolean(true);
    private final ConcurrentLinkedQueue<Handed> handed = new ConcurrentLinkedQueue<>();
    private final AtomicInteger handedCount = new AtomicInteger();
    /** The relay that takes hand-offs, null when none does. */
    private volatile String owner;
    /** Whether writers lease to {@link #owner} now (not while its broker is unreachable). */
    private volatile boolean accepting;
    /** A hand-off older than this may outlive its lease before its batch is marked: it is given back instead. */
    private volatile long maxAgeNanos;

    private record Handed(ClaimedRow event, long handedAt) {
    }

    /** A commit wrote outbox rows that no relay leases: the local relay claims them now. */
    public void nudge() {
        claimWanted.set(true);
        wake();
    }

    /** The relay id to lease a new aggregate's first event to, when the local relay takes hand-offs and has room. */
    public Optional<String> leaseHolder() {
        String to = owner;
        return to != null && accepting && handedCount.get() < MAX_HANDED ? Optional.of(to) : Optional.empty();
    }

    /**
     * An event whose row was leased to {@code leasedTo} has committed: its relay publishes it without a claim.
     * {@code leasedAtNanos} is no later than the start of the lease, which the database counted from its statement.
     */
    public void hand(String leasedTo, ClaimedRow event, long leasedAtNanos) {
        if (leasedTo.equals(owner)) {
            handed.add(new Handed(event, leasedAtNanos));
            handedCount.incrementAndGet();
        }
        wake();
    }

    /** {@code relay} takes hand-offs from now on; a hand-off older than {@code maxAge} is given back unpublished. */
    void open(String relay, Duration maxAge) {
        maxAgeNanos = maxAge.toNanos();
        owner = relay;
        accepting = true;
    }

    /** While the broker is unreachable writers lease nothing; the hand-offs in the queue stay for the relay. */
    void accepting(boolean accept) {
        accepting = accept;
    }

    /** The relay is stopping: no further leases; what is queued is released with the rest of its leases. */
    void close() {
        accepting = false;
        owner = null;
    }

    /** Hand-offs taken by the relay: those to publish, and those too old to (their leases go back, a claim takes them). */
    record Taken(List<ClaimedRow> events, List<ClaimedRow> stale) {
    }

    /** Up to {@code max} hand-offs for {@code relay}, oldest first; those older than the maximum age are stale. */
    Taken takeHanded(String relay, int max) {
        List<ClaimedRow> events = new ArrayList<>();
        List<ClaimedRow> stale = new ArrayList<>();
        if (!relay.equals(owner)) {
            return new Taken(events, stale);
        }
        long now = System.nanoTime();
        Handed next;
        while (events.size() < max && (next = handed.poll()) != null) {
            handedCount.decrementAndGet();
            (now - next.handedAt() > maxAgeNanos ? stale : events).add(next.event());
        }
        return new Taken(events, stale);
    }

    /**
     * The broker is away: writers lease nothing more to the local relay until it accepts again, and the hand-offs still
     * queued for {@code relay} are returned, for their leases to be given back.
     */
    List<ClaimedRow> stopHanding(String relay) {
        accepting = false;
        Taken queued = takeHanded(relay, Integer.MAX_VALUE);
        List<ClaimedRow> all = new ArrayList<>(queued.events());
        all.addAll(queued.stale());
        return all;
    }

    /** Whether a commit asked for a claim since the last call. */
    boolean takeClaimWanted() {
        return claimWanted.getAndSet(false);
    }

    /** A claim found a full batch: there may be more, so the next drain claims again. */
    void claimAgain() {
        claimWanted.set(true);
    }

    /**
     * Waits for a nudge or a hand-off, at most {@code timeoutNanos}; after one, waits {@code coalesce} more so the
     * commits of concurrent requests leave as one batch. @return whether a nudge or hand-off came
     */
    boolean await(long timeoutNanos, Duration coalesce) throws InterruptedException {
        boolean woken = nudges.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
        if (woken && !coalesce.isZero()) {
            Thread.sleep(coalesce.toMillis());
        }
        nudges.drainPermits();
        return woken;
    }

    private void wake() {
        if (nudges.availablePermits() == 0) {
            nudges.release();
        }
    }
}
