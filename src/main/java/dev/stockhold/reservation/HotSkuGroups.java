package dev.stockhold.reservation;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.stockhold.idempotency.IdempotencyKeyReusedException;
import dev.stockhold.idempotency.IdempotencyRepository;
import dev.stockhold.idempotency.RequestInProgressException;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.reservation.SkuLanes.Answered;
import dev.stockhold.reservation.SkuLanes.Failed;
import dev.stockhold.reservation.SkuLanes.Ticket;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Single-line reservations through their sku's lane ({@link SkuLanes}): alone when the sku is quiet, committed together
 * with the requests that queued behind it when it is hot. A group is all-or-nothing: if it cannot commit as a whole,
 * nothing of it was committed and each request takes the plain path, so "the last unit goes to exactly one" holds as if
 * there were no groups.
 */
final class HotSkuGroups {

    private final java.time.Clock clock;

    /** The plain path a request takes when its sku is quiet or its group cannot commit as a whole. */
    interface PlainPath {
        ReservationReply alone(ReservationAttempt attempt, Duration keyWait);

        /** The key's stored outcome (or the exception a reused or in-flight key throws). */
        ReservationReply replay(ReservationAttempt attempt);
    }

    /** How long a group waits for a key another transaction holds before giving its requests back to run alone. */
    static final Duration GROUP_KEY_WAIT = Duration.ofMillis(50);
    /** Stripes of the lanes: enough that two quiet skus rarely share one. */
    private static final int LANES = 4096;

    private final SkuLanes<ReservationAttempt, ReservationReply> lanes;
    private final IdempotencyRepository keys;
    private final StockMoves stock;
    private final HeldViews views;
    private final NewReservations writer;
    private final ReservationMetrics metrics;
    private final PlainPath plain;
    private final Duration keyWait;

    HotSkuGroups(int maxGroup, IdempotencyRepository keys, StockMoves stock, HeldViews views, NewReservations writer,
            ReservationMetrics metrics,
            PlainPath plain, Duration keyWait, java.time.Clock clock) {
        this.clock = clock;
        this.lanes = new SkuLanes<>(LANES, maxGroup);
        this.keys = keys;
        this.stock = stock;
        this.views = views;
        this.writer = writer;
        this.metrics = metrics;
        this.plain = plain;
        this.keyWait = keyWait;
    }

    ReservationReply reserve(ReservationAttempt attempt) {
        Ticket<ReservationAttempt, ReservationReply> ticket = new Ticket<>(attempt.tenantId(), attempt.firstSku(), attempt);
        return lanes.submit(ticket, this::commit).resolve(() -> plain.alone(attempt, keyWait));
    }

    /**
     * Commits one lane's group. A group of one is a request on its own, as without lanes. Several commit in one
     * transaction: each request claims its key and writes its reservation and event, then one conditional hold takes
     * their sum. If the sum is not there (or anything else fails) nothing was committed and every request runs alone.
     * A request whose key was already taken (a retry, or the same key twice in the group) gets the stored outcome, read
     * in the same transaction. The lane is held only while the group commits: a key still held by an in-flight original
     * fails it within {@link #GROUP_KEY_WAIT}, and that request then waits for its original alone, outside the lane.
     */
    private void commit(List<Ticket<ReservationAttempt, ReservationReply>> group) {
        if (group.size() == 1) {
            Ticket<ReservationAttempt, ReservationReply> ticket = group.get(0);
            try {
                ticket.complete(new Answered<>(plain.alone(ticket.request, GROUP_KEY_WAIT)));
            } catch (RequestInProgressException e) {
                // left to run alone, waiting its full in-flight wait outside the lane
            } catch (RuntimeException e) {
                ticket.complete(new Failed<>(e));
            }
            return;
        }
        Map<Ticket<ReservationAttempt, ReservationReply>, SkuLanes.Outcome<ReservationReply>> outcomes = new LinkedHashMap<>();
        int fresh;
        try {
            fresh = QuarkusTransaction.requiringNew().call(() -> {
                try {
                    return attemptGroup(group, outcomes);
                } catch (RuntimeException e) {
                    throw new GroupRolledBack(e);
                }
            });
        } catch (GroupRolledBack e) {
            return; // nothing committed: every request runs alone
        } catch (RuntimeException e) {
            outcomes.keySet().forEach(t -> t.complete(new Failed<>(e))); // the commit failed or its outcome is unknown
            return;
        }
        outcomes.forEach(Ticket::complete);
        if (fresh > 0) {
            metrics.grouped(fresh);
        }
    }

    /**
     * Fills {@code outcomes} with each request's reply, or the exception a replay of its key answers.
     *
     * @return how many reservations the group created (replays are not among them)
     */
    private int attemptGroup(List<Ticket<ReservationAttempt, ReservationReply>> group,
            Map<Ticket<ReservationAttempt, ReservationReply>, SkuLanes.Outcome<ReservationReply>> outcomes) {
        Instant now = dev.stockhold.Clocks.now(clock);
        String tenantId = group.get(0).tenantId;
        // each request placed as if the group's earlier requests had already taken their units, as they would alone
        List<Candidate> candidates = stock.candidates(tenantId, List.of(group.get(0).sku), GROUP_KEY_WAIT);
        Map<StockKey, Long> taken = new HashMap<>();
        List<ReservationView> heldViews = new ArrayList<>();
        List<IdempotencyRepository.Claim> claims = new ArrayList<>();
        for (Ticket<ReservationAttempt, ReservationReply> ticket : group) {
            ReservationRequest request = ticket.request.request();
            if (!(Allocation.of(request.allocationLines(), candidates, taken) instanceof Allocation.Placed placed)) {
                throw new IllegalStateException("a request of the group cannot be placed"); // each runs alone and is refused there
            }
            ReservationView held = views.held(request, placed, now);
            heldViews.add(held);
            claims.add(new IdempotencyRepository.Claim(ticket.request.key(), ticket.request.fingerprint(), views.created(held)));
        }
        // one round trip per statement for the whole group
        boolean[] owned = keys.claimAll(tenantId, claims);
        Map<String, ReservationView> byKey = new LinkedHashMap<>();
        for (int i = 0; i < group.size(); i++) {
            Ticket<ReservationAttempt, ReservationReply> ticket = group.get(i);
            if (owned[i]) {
                byKey.put(ticket.request.key().value(), heldViews.get(i));
                outcomes.put(ticket, new Answered<>(new ReservationReply(claims.get(i).outcome(), false)));
            } else {
                outcomes.put(ticket, replayed(ticket.request));
            }
        }
        if (!byKey.isEmpty() && !writer.write(tenantId, byKey, now)) {
            throw new IllegalStateException("not enough stock for the group's sum");
        }
        return byKey.size();
    }

    private SkuLanes.Outcome<ReservationReply> replayed(ReservationAttempt attempt) {
        try {
            return new Answered<>(plain.replay(attempt));
        } catch (IdempotencyKeyReusedException | RequestInProgressException e) {
            return new Failed<>(e);
        }
    }

    /** Thrown out of a group's transaction: it rolled back, nothing of it was committed. */
    private static final class GroupRolledBack extends RuntimeException {
        GroupRolledBack(RuntimeException cause) {
            super(null, cause, false, false);
        }
    }
}
