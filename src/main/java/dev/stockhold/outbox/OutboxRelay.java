package dev.stockhold.outbox;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import dev.stockhold.StockholdConfig;
import io.quarkus.logging.Log;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Turns "the database committed" into "the broker confirmed" (I6). One worker thread per process: it wakes on a nudge
 * after each local commit, or every poll interval for rows written by other replicas, and drains claimable events batch
 * by batch, claiming the next batch while the broker confirms the current one. A new reservation's created event is not
 * claimed: the statement that wrote it leased it to this relay and handed it over in memory ({@link RelaySignal}). A
 * row is marked published only after the broker confirmed it, and the worker lets confirms gather for up to {@code
 * stockhold.relay.mark-delay} so that one statement marks several publishes ({@link Unmarked}); a relay that dies
 * leaves its rows leased until the lease expires, and they are then published again with the same id (at least once).
 * Two kinds of failure are kept apart. A broker that cannot be reached (connection refused or lost, no confirm for the
 * batch in time) is nobody's fault: the leases go back without an attempt charged, the relay pauses and probes the
 * broker with a capped backoff, and drains again the moment it answers. Only the broker's answer about one event (a
 * nack, unroutable, a payload it cannot take) counts an attempt and can lead, after the last one, to DEAD.
 */
@ApplicationScoped
public class OutboxRelay {

    @Inject
    StockholdConfig config;
    @Inject
    RelayStore store;
    /** The relay's wall clock: retry times and outage spans (an injected Clock, so tests can move it). */
    @Inject
    Clock clock;
    @Inject
    EventPublisher publisher;
    @Inject
    RelaySignal signal;
    @Inject
    OutboxMetrics metrics;
    @Inject
    BrokerState broker;
    @Inject
    CommitTimes commitTimes;
    private final String relayId = instanceName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    /** Set once, on shutdown: the worker ends and a drain claims no further batch. */
    private volatile boolean stopping;
    /** The relay's waits, each cut short when it stops. */
    private final RelayPause pause = new RelayPause(() -> stopping);
    private Thread worker;
    /** When this relay last claimed: hand-offs alone never keep it from claiming longer than the poll interval. */
    private volatile long lastClaimNanos;
    private final RelayFailureLog failureLog = new RelayFailureLog();

    void start(@Observes StartupEvent event) {
        if (!config.relay().enabled()) {
            Log.info("Outbox relay disabled (stockhold.relay.enabled=false)");
            return;
        }
        worker = new Thread(this::loop, "outbox-relay");
        worker.setDaemon(true);
        worker.start();
        // a hand-off older than half its lease is given back: the other half is for the publish and the mark
        signal.open(relayId, config.relay().lease().dividedBy(2));
        Log.infof("Outbox relay %s started, target %s", relayId, publisher.target());
    }

    /** Graceful shutdown: finish the batch in hand, then hand the leases back so another replica goes on at once. */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (worker == null) {
            return;
        }
        stopping = true;
        signal.close();
        signal.nudge();
        worker.join(config.relay().publishTimeout().plusSeconds(2).toMillis());
        int released = store.releaseLeases(relayId);
        Log.infof("Outbox relay %s stopped, %d leases released", relayId, released);
    }

    private void loop() {
        Unmarked unmarked = unmarked(relayId, markDelay());
        while (!stopping) {
            try {
                if (drain(unmarked, publisher).unreachable()) {
                    unmarked.flush();
                    pause.untilReachable(broker, publisher, metrics, clock, config.relay().brokerProbeInitial(),
                            config.relay().brokerProbeMax(),
                            () -> store.release(relayId, signal.stopHanding(relayId).stream().map(ClaimedRow::id).toList()));
                    signal.accepting(true);
                    continue;
                }
                awaitWork(unmarked);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                // the database is unreachable, for instance: rows stay leased or pending, nothing is lost
                Log.warnf("Outbox relay iteration failed: %s", dev.stockhold.Causes.summary(e));
                pause.sleep(config.relay().pollInterval());
            }
        }
        try {
            unmarked.flush();
        } catch (RuntimeException e) {
            Log.warnf("Outbox relay %s: %d confirmed events left unmarked at shutdown; they will be published again: %s",
                    relayId, unmarked.size(), dev.stockhold.Causes.summary(e));
        }
    }

    /**
     * Nothing left to claim: waits for a nudge (plus the coalescing window) or the poll interval, and marks the
     * confirmed events in hand when their delay is up, without a claim.
     */
    private void awaitWork(Unmarked unmarked) throws InterruptedException {
        long pollAt = System.nanoTime() + config.relay().pollInterval().toNanos();
        while (!stopping) {
            if (unmarked.due()) {
                unmarked.flush();
            }
            long untilPoll = pollAt - System.nanoTime();
            if (untilPoll <= 0) {
                return;
            }
            long wait = unmarked.isEmpty() ? untilPoll : Math.min(untilPoll, unmarked.nanosUntilDue());
            if (signal.await(wait, config.relay().coalesce())) {
                return;
            }
        }
    }

    /** The mark delay, at most a quarter of the lease, so that a confirmed event is marked while its lease holds. */
    private Duration markDelay() {
        Duration delay = config.relay().markDelay();
        Duration bound = config.relay().lease().dividedBy(4);
        if (delay.compareTo(bound) > 0) {
            Log.warnf("stockhold.relay.mark-delay %s is more than a quarter of the lease; using %s", delay, bound);
            return bound;
        }
        return delay;
    }

    /**
     * Claims and publishes as {@code relay} through {@code via} until a claim comes back short of a full batch or the
     * broker cannot be reached (the leases in hand then go back, no attempt charged). While the broker confirms a full
     * batch the next is claimed, and while it takes the next one the first is marked: the database and the broker work
     * at the same time. A batch short of the batch size took everything claimable, so no next claim is made while it
     * is confirmed (at low rates that claim came back empty most of the time: a transaction for nothing); events
     * committed meanwhile nudge the worker, which drains again once this batch is marked. A batch claimed while an
     * earlier one is unmarked never holds a later event of the same aggregate (the claim skips events with an
     * unpublished predecessor), so per-aggregate order holds. Package-private so tests drive the same path as other
     * replicas; this drain marks every confirm before it returns.
     */
    Drained drain(String relay, EventPublisher via) {
        return drain(unmarked(relay, Duration.ZERO), via);
    }

    /** Confirms of {@code relay} to be marked once {@code delay} old (or sooner: {@link Unmarked}). */
    Unmarked unmarked(String relay, Duration delay) {
        return new Unmarked(store, metrics, config.relay().batchSize(), config.outbox().maxAttempts(), relay, delay);
    }

    /** A drain as {@code unmarked}'s relay, whose confirmed events it marks when they are due. */
    Drained drain(Unmarked unmarked, EventPublisher via) {
        String relay = unmarked.relay;
        int claimed = 0;
        int confirmed = 0;
        List<ClaimedRow> batch = take(unmarked);
        EventPublisher.Sent sent = batch.isEmpty() ? null : send(via, batch);
        while (sent != null) {
            claimed += batch.size();
            List<ClaimedRow> next = stopping || batch.size() < config.relay().batchSize() ? List.of() : take(unmarked);
            PublishOutcome outcome = sent.await(config.relay().publishTimeout());
            if (outcome instanceof PublishOutcome.Unreachable unreachable) {
                handBack(relay, Stream.concat(batch.stream(), next.stream()).toList(), unreachable);
                return new Drained(claimed, confirmed, true);
            }
            EventPublisher.Sent nextSent = next.isEmpty() ? null : send(via, next);
            confirmed += settle(unmarked, batch, (PublishOutcome.Answered) outcome);
            batch = next;
            sent = nextSent;
        }
        return new Drained(claimed, confirmed, false);
    }

    /**
     * The next batch: this replica's hand-offs first (leased to {@code relay} by the statement that wrote them, so no
     * claim), then a claim for the rest of the batch when there were no hand-offs, a commit asked for one, or the last
     * claim is a poll interval old (rows of other replicas, retries, requeues). Hand-offs too old to be marked within
     * their lease are given back, and a claim takes them. Confirmed events still unmarked are marked before a claim:
     * the claim skips an event whose predecessor is unpublished, so it must see them published.
     */
    private List<ClaimedRow> take(Unmarked unmarked) {
        String relay = unmarked.relay;
        int size = config.relay().batchSize();
        RelaySignal.Taken handed = signal.takeHanded(relay, size);
        List<ClaimedRow> batch = handed.events();
        if (!handed.stale().isEmpty()) {
            store.release(relay, handed.stale().stream().map(ClaimedRow::id).toList());
        }
        boolean wanted = batch.size() < size && signal.takeClaimWanted();
        long now = System.nanoTime();
        if (batch.size() < size && (batch.isEmpty() || wanted || !handed.stale().isEmpty()
                || now - lastClaimNanos > config.relay().pollInterval().toNanos())) {
            lastClaimNanos = now;
            unmarked.flush();
            List<ClaimedRow> claimed = store.claim(relay, size - batch.size(), config.relay().lease());
            if (claimed.size() == size - batch.size()) {
                signal.claimAgain();
            }
            batch.addAll(claimed);
        }
        return batch;
    }

    private EventPublisher.Sent send(EventPublisher via, List<ClaimedRow> batch) {
        long start = System.nanoTime();
        try {
            EventPublisher.Sent sent = via.send(batch);
            return timeout -> {
                try {
                    return sent.await(timeout);
                } finally {
                    metrics.publishCall(System.nanoTime() - start);
                }
            };
        } catch (RuntimeException e) {
            // a defect in this process rather than the broker: charged to the events, so it ends visible as DEAD
            PublishFailure failure = PublishFailure.transientFailure("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            return EventPublisher.Sent.answered(new PublishOutcome.Answered(
                    batch.stream().collect(java.util.stream.Collectors.toMap(ClaimedRow::id, x -> failure))));
        }
    }

    /**
     * The broker answered: confirmed rows are to become PUBLISHED (now, or with later confirms when the mark delay
     * lets them wait), failed ones count an attempt at once. @return events confirmed
     */
    private int settle(Unmarked unmarked, List<ClaimedRow> batch, PublishOutcome.Answered answered) {
        Instant now = clock.instant();
        long nanos = System.nanoTime();
        StockholdConfig.Outbox outbox = config.outbox();
        List<RelayStore.Mark> failed = new ArrayList<>(answered.failures().size());
        int confirmed = 0;
        for (ClaimedRow event : batch) {
            PublishFailure failure = answered.failures().get(event.id());
            if (failure == null) {
                unmarked.add(event.id());
                metrics.published(event, now, nanos, commitTimes.take(event.id()));
                confirmed++;
            } else {
                Duration delay = Backoff.delay(event.id(), event.attempts() + 1, outbox.backoffInitial(), outbox.backoffMax());
                failed.add(new RelayStore.Mark(event.id(), failure, now.plus(delay)));
                metrics.failed(failure.reason(), 1);
            }
        }
        if (!failed.isEmpty()) {
            failureLog.report(batch, answered, unmarked.flush(failed));
        } else if (unmarked.due()) {
            unmarked.flush();
        }
        return confirmed;
    }

    /**
     * No attempt charged: the leases go back at once, with the hand-offs that came in while the batch was out, and
     * writers lease no more to this relay until its pause ends ({@link #loop}, which gives back late hand-offs too).
     */
    private void handBack(String relay, List<ClaimedRow> events, PublishOutcome.Unreachable why) {
        broker.unreachable(why, clock.instant());
        metrics.failed(why.reason(), events.size());
        store.release(relay, Stream.concat(events.stream(), signal.stopHanding(relay).stream()).map(ClaimedRow::id).toList());
    }

    /** How one drain went: events claimed and confirmed, and whether it ended because the broker was unreachable. */
    record Drained(int claimed, int confirmed, boolean unreachable) {
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
