package dev.stockhold.reservation;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.IdempotencyKeyReusedException;
import dev.stockhold.idempotency.IdempotencyStore;
import dev.stockhold.idempotency.Refusal;
import dev.stockhold.idempotency.RequestInProgressException;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.StockEvents;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockRecord;
import dev.stockhold.inventory.StockRecords;
import dev.stockhold.outbox.EventType;
import dev.stockhold.outbox.OutboxWriter;
import dev.stockhold.reservation.ReservationMetrics.Outcome;
import dev.stockhold.web.OutcomeLog;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemResponses;
import dev.stockhold.web.ProblemType;
import io.quarkus.narayana.jta.QuarkusTransaction;

/** Reserve, confirm, cancel and expire: each state change and its outbox event in one transaction. */
@ApplicationScoped
@Transactional
public class ReservationService {

    private final IdempotencyStore keys;
    private final StockRecords stock;
    private final StockEvents stockEvents;
    private final ReservationStore store;
    private final ReservationRepository reservations;
    private final OutboxWriter outbox;
    private final ReservationMetrics metrics;
    private final ProblemResponses problems;
    private final ObjectMapper mapper;
    private final StockholdConfig config;
    /** Hot-sku grouping; null when turned off. */
    private final SkuLanes lanes;
    /** How long a group waits for a key another transaction holds before giving its requests back to run alone. */
    private static final Duration GROUP_KEY_WAIT = Duration.ofMillis(50);
    /** Stripes of the lanes: enough that two quiet skus rarely share one. */
    private static final int LANES = 4096;

    /** How often a request whose allocation lost a race to another writer is tried again before it is refused. */
    private static final int ALLOCATION_ATTEMPTS = 3;

    ReservationService(IdempotencyStore keys, StockRecords stock, StockEvents stockEvents, ReservationStore store,
            ReservationRepository reservations, OutboxWriter outbox, ReservationMetrics metrics, ProblemResponses problems,
            ObjectMapper mapper, StockholdConfig config) {
        this.keys = keys;
        this.stock = stock;
        this.stockEvents = stockEvents;
        this.store = store;
        this.reservations = reservations;
        this.outbox = outbox;
        this.metrics = metrics;
        this.problems = problems;
        this.mapper = mapper;
        this.config = config;
        int groupSize = config.reservations().hotSkuGroupSize();
        this.lanes = groupSize > 1 ? new SkuLanes(LANES, groupSize) : null;
    }

    /** The answer to POST /v1/reservations: a stored outcome, fresh or replayed. */
    public record Reply(StoredResponse response, boolean replayed) {
    }

    /**
     * Executes the request once per (tenant, key). The key, reservation and outbox row are written first and
     * the conditional decrements last, so a hot sku's row lock is held only until commit. A refusal rolls all of
     * it back and is then stored on its own, so a retry of the key gets the same refusal.
     */
    @Transactional(Transactional.TxType.NEVER)
    public Reply reserve(String tenantId, IdempotencyKey key, ReservationRequest request) {
        Fingerprint fingerprint = request.fingerprint();
        Reply reply;
        try {
            Attempt attempt = new Attempt(tenantId, key, fingerprint, request);
            reply = request.lines().size() == 1 && lanes != null
                    ? grouped(attempt)
                    : alone(attempt, config.idempotency().inFlightWait());
        } catch (IdempotencyKeyReusedException e) {
            metrics.outcome(Outcome.KEY_REUSED);
            throw e;
        } catch (RequestInProgressException e) {
            metrics.outcome(Outcome.IN_PROGRESS);
            throw e;
        }
        record(tenantId, key, reply);
        return reply;
    }

    /**
     * One request in its own transaction; a refusal rolls it back and is then stored on its own.
     *
     * @param keyWait how long to wait for a key an in-flight original holds (then 409 in progress)
     */
    private Reply alone(Attempt a, Duration keyWait) {
        try {
            for (int i = 1;; i++) {
                int attemptNo = i;
                try {
                    return QuarkusTransaction.requiringNew().call(() -> attempt(a, keyWait, attemptNo == ALLOCATION_ATTEMPTS));
                } catch (AllocationRaced raced) {
                    // another writer took the units between our read and our hold: allocate again from a fresh read
                }
            }
        } catch (Refusal refused) {
            return QuarkusTransaction.requiringNew().call(() -> storeRefusal(a, keyWait, refused.response()));
        }
    }

    /** A single-line reservation, through its sku's lane: alone if the sku is quiet, in a group if it is hot. */
    private Reply grouped(Attempt attempt) {
        String sku = attempt.request().lines().get(0).sku();
        Object outcome = lanes.submit(new SkuLanes.Ticket<>(attempt.tenantId(), sku, attempt), this::commit);
        if (outcome instanceof Reply reply) {
            return reply;
        }
        if (outcome instanceof RuntimeException failure) {
            throw failure;
        }
        return alone(attempt, config.idempotency().inFlightWait());   // SkuLanes.ALONE
    }

    /**
     * Commits one lane's group. A group of one is a request on its own, as without lanes. Several commit in one
     * transaction: each request claims its key and writes its reservation and event, then one conditional decrement
     * takes their sum. If the sum is not there (or anything else fails) nothing was committed and every request runs
     * alone, so all-or-nothing and "the last unit goes to exactly one" hold as if there were no group. A request whose
     * key was already taken (a retry, or the same key twice in the group) gets the stored outcome, read in the same
     * transaction. The lane is held only while the group commits: a key still held by an in-flight original fails it
     * within {@link #GROUP_KEY_WAIT}, and that request then waits for its original alone, outside the lane.
     */
    private void commit(List<SkuLanes.Ticket<Attempt>> group) {
        if (group.size() == 1) {
            SkuLanes.Ticket<Attempt> ticket = group.get(0);
            try {
                ticket.complete(alone(ticket.request, GROUP_KEY_WAIT));
            } catch (RequestInProgressException e) {
                // left to run alone, waiting its full in-flight wait outside the lane
            } catch (RuntimeException e) {
                ticket.complete(e);
            }
            return;
        }
        Map<SkuLanes.Ticket<Attempt>, Object> outcomes = new LinkedHashMap<>();
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                try {
                    attemptGroup(group, outcomes);
                } catch (RuntimeException e) {
                    throw new GroupRolledBack(e);
                }
            });
        } catch (GroupRolledBack e) {
            return;   // nothing committed: every request runs alone
        } catch (RuntimeException e) {
            outcomes.keySet().forEach(t -> t.complete(e));   // the commit failed or its outcome is unknown
            return;
        }
        outcomes.forEach(SkuLanes.Ticket::complete);
        metrics.grouped(group.size());
    }

    /** Fills {@code outcomes} with each request's reply, or the exception a replay of its key answers. */
    private void attemptGroup(List<SkuLanes.Ticket<Attempt>> group, Map<SkuLanes.Ticket<Attempt>, Object> outcomes) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String tenantId = group.get(0).tenantId;
        // each request placed as if the group's earlier requests had already taken their units, as they would alone
        List<StockRecords.Candidate> candidates = stock.candidates(tenantId, List.of(group.get(0).sku), GROUP_KEY_WAIT);
        Map<StockKey, Long> taken = new HashMap<>();
        List<ReservationView> views = new ArrayList<>();
        List<IdempotencyStore.Claim> claims = new ArrayList<>();
        for (SkuLanes.Ticket<Attempt> ticket : group) {
            ReservationRequest request = ticket.request.request();
            if (!(Allocation.of(request.allocationLines(), candidates, taken) instanceof Allocation.Placed placed)) {
                throw new IllegalStateException("a request of the group cannot be placed");   // each runs alone and is refused there
            }
            ReservationView held = held(request, placed, now);
            views.add(held);
            claims.add(new IdempotencyStore.Claim(ticket.request.key(), ticket.request.fingerprint(),
                    new StoredResponse(201, json(held), held.location(), held.id())));
        }
        // one round trip per statement for the whole group
        boolean[] owned = keys.claimAll(tenantId, claims);
        Map<String, ReservationView> byKey = new LinkedHashMap<>();
        for (int i = 0; i < group.size(); i++) {
            SkuLanes.Ticket<Attempt> ticket = group.get(i);
            if (owned[i]) {
                byKey.put(ticket.request.key().value(), views.get(i));
                outcomes.put(ticket, new Reply(claims.get(i).outcome(), false));
            } else {
                outcomes.put(ticket, replayOutcome(ticket.request));
            }
        }
        if (!byKey.isEmpty() && !writeHeld(tenantId, byKey, now)) {
            throw new IllegalStateException("not enough stock for the group's sum");
        }
    }

    /**
     * What every new reservation writes, alone or in a group: the reservations and their lines, one created event each,
     * then (last, so the records' row locks are held only until commit) one conditional hold of their summed quantities
     * per stock record, and a depleted event for each record it empties.
     *
     * @return false if some record did not have the units: the caller rolls the transaction back
     */
    private boolean writeHeld(String tenantId, Map<String, ReservationView> byKey, Instant now) {
        store.insertHeldAll(tenantId, byKey);
        Map<UUID, ReservationView> byId = new LinkedHashMap<>();
        SortedMap<StockKey, Long> quantities = new TreeMap<>();
        for (ReservationView view : byKey.values()) {
            byId.put(view.id(), view);
            view.quantities().forEach((key, qty) -> quantities.merge(key, qty, Long::sum));
        }
        outbox.writeAll(EventType.CREATED, tenantId, byId, now);
        // another replica may hold a record: wait for it as long as for an in-flight key
        List<StockRecord> moved = stock.move(StockRecords.Move.HOLD, tenantId, quantities, config.idempotency().inFlightWait());
        if (moved.size() != quantities.size()) {
            return false;
        }
        stockEvents.crossings(tenantId, moved, quantities, false, now);
        return true;
    }

    /** Thrown out of a request's transaction when a record it was placed on no longer had the units at the hold. */
    private static final class AllocationRaced extends RuntimeException {
        AllocationRaced() {
            super(null, null, false, false);
        }
    }

    /** One reservation request on its way through a lane. */
    private record Attempt(String tenantId, IdempotencyKey key, Fingerprint fingerprint, ReservationRequest request) {
    }

    /** Thrown out of a group's transaction: it rolled back, nothing of it was committed. */
    private static final class GroupRolledBack extends RuntimeException {
        GroupRolledBack(RuntimeException cause) {
            super(null, cause, false, false);
        }
    }

    private ReservationView held(ReservationRequest request, Allocation.Placed placed, Instant now) {
        int ttl = request.ttlSeconds() == null ? config.reservations().defaultTtlSeconds() : request.ttlSeconds();
        List<ReservationView.Line> lines = new ArrayList<>();
        for (int i = 0; i < request.lines().size(); i++) {
            ReservationRequest.Line line = request.lines().get(i);
            lines.add(new ReservationView.Line(line.sku(), line.quantity(), placed.keys().get(i).location()));
        }
        return new ReservationView(UUID.randomUUID(), ReservationStatus.HELD, lines, now.plusSeconds(ttl), now,
                request.reference(), request.metadata());
    }

    /** What a replay of this key answers: the stored reply, or the exception it throws. */
    private Object replayOutcome(Attempt a) {
        try {
            return replay(a.tenantId(), a.key(), a.fingerprint());
        } catch (IdempotencyKeyReusedException | RequestInProgressException e) {
            return e;
        }
    }

    /**
     * @param last whether a record taken by another writer since our read refuses the request rather than trying again
     */
    private Reply attempt(Attempt a, Duration keyWait, boolean last) {
        String tenantId = a.tenantId();
        IdempotencyKey key = a.key();
        ReservationRequest request = a.request();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<StockRecords.Candidate> candidates = stock.candidates(tenantId,
                request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList(), keyWait);
        Allocation allocation = Allocation.of(request.allocationLines(), candidates, new HashMap<>());
        if (allocation instanceof Allocation.Refused refused) {
            throw refusal(refused.unknown(), refused.shortSkus());
        }
        ReservationView held = held(request, (Allocation.Placed) allocation, now);
        StoredResponse created = new StoredResponse(201, json(held), held.location(), held.id());
        if (!keys.claim(tenantId, key, a.fingerprint(), created)) {
            return replay(tenantId, key, a.fingerprint());
        }
        if (writeHeld(tenantId, Map.of(key.value(), held), now)) {
            return new Reply(created, false);
        }
        if (!last) {
            throw new AllocationRaced();
        }
        throw refusal(List.of(), request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList());
    }

    private Refusal refusal(List<String> unknown, List<String> shortSkus) {
        Problem refusal = unknown.isEmpty()
                ? Problem.of(ProblemType.INSUFFICIENT_STOCK, "Not enough stock for: " + String.join(", ", shortSkus)
                        + "; nothing was reserved").withSkus(shortSkus)
                : Problem.of(ProblemType.UNKNOWN_SKU, "Unknown sku: " + String.join(", ", unknown)
                        + "; nothing was reserved").withSkus(unknown);
        return new Refusal(new StoredResponse(refusal.status(), problems.json(refusal), null, null));
    }

    private Reply storeRefusal(Attempt a, Duration keyWait, StoredResponse refusal) {
        keys.limitLockWait(keyWait);
        if (keys.claim(a.tenantId(), a.key(), a.fingerprint(), refusal)) {
            return new Reply(refusal, false);
        }
        return replay(a.tenantId(), a.key(), a.fingerprint());
    }

    private Reply replay(String tenantId, IdempotencyKey key, Fingerprint fingerprint) {
        return new Reply(keys.replay(tenantId, key, fingerprint), true);
    }

    private void record(String tenantId, IdempotencyKey key, Reply reply) {
        StoredResponse r = reply.response();
        Outcome outcome = reply.replayed() ? Outcome.REPLAYED
                : switch (r.status()) {
                    case 201 -> Outcome.CREATED;
                    case 409 -> Outcome.INSUFFICIENT_STOCK;
                    default -> Outcome.UNKNOWN_SKU;
                };
        metrics.outcome(outcome);
        OutcomeLog.info(outcome.tag(), tenantId, key.value(), r.reservationId(), "status=" + r.status());
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public ReservationView get(String tenantId, UUID id) {
        return reservations.find(tenantId, id).map(ReservationView::of)
                .orElseThrow(() -> new ReservationNotFoundException(id.toString()));
    }

    /** One page of the tenant's reservations, newest first, and the cursor of the next page if there is one. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public ReservationList list(ReservationQuery query) {
        ReservationRepository.Page page = reservations.page(query);
        return new ReservationList(page.items().stream().map(ReservationView::of).toList(),
                page.next() == null ? null : query.encode(page.next()));
    }

    /** HELD -> CONFIRMED. Idempotent on CONFIRMED; refused once the hold expired, even before the expiry job ran. */
    public ReservationView confirm(String tenantId, UUID id) {
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        Instant now = Instant.now();
        switch (r.status) {
            case CONFIRMED:
                return ReservationView.of(r);
            case HELD:
                if (r.isPastExpiry(now)) {
                    throw new InvalidReservationStateException("Reservation expired at " + r.expiresAt + "; it cannot be confirmed");
                }
                stock.move(StockRecords.Move.SELL, tenantId, r.quantities(), null);   // sold: on hand and held drop, available stays
                return transition(r, ReservationStatus.CONFIRMED, EventType.CONFIRMED, now);
            default:
                throw new InvalidReservationStateException("Reservation is " + r.status + "; only a HELD reservation can be confirmed");
        }
    }

    /** HELD -> CANCELLED and the stock returns. Idempotent on CANCELLED. */
    public ReservationView cancel(String tenantId, UUID id) {
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        switch (r.status) {
            case CANCELLED:
                return ReservationView.of(r);
            case HELD:
                Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
                release(tenantId, r.quantities(), now);
                return transition(r, ReservationStatus.CANCELLED, EventType.CANCELLED, now);
            default:
                throw new InvalidReservationStateException("Reservation is " + r.status + "; only a HELD reservation can be cancelled");
        }
    }

    /**
     * A HELD reservation not yet past {@code expiresAt} is held until now + ttl (shorter or longer than before), with
     * one extended event. The row lock orders it against confirm, cancel and the expiry job: exactly one of them wins.
     */
    public ReservationView extend(String tenantId, UUID id, int ttlSeconds) {
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        Instant now = Instant.now();
        if (r.status != ReservationStatus.HELD || r.isPastExpiry(now)) {
            throw new InvalidReservationStateException(r.status == ReservationStatus.HELD
                    ? "Reservation expired at " + r.expiresAt + "; it cannot be extended"
                    : "Reservation is " + r.status + "; only a HELD reservation can be extended");
        }
        Instant until = now.plusSeconds(ttlSeconds).truncatedTo(ChronoUnit.MILLIS);
        Instant limit = r.createdAt.plus(config.reservations().maxHold());
        if (until.isAfter(limit)) {
            throw new HoldLimitReachedException(limit);
        }
        r.extendTo(until, now);
        ReservationView view = ReservationView.of(r);
        outbox.write(EventType.EXTENDED, r.tenantId, r.id, now, view);
        OutcomeLog.info("extended", r.tenantId, r.idempotencyKey, r.id, "expiresAt=" + until);
        return view;
    }

    /**
     * Expires one batch of HELD reservations past their expiry, returning their stock once. Stock is released per
     * (tenant, sku, location) in sorted order, the order every other writer uses, so the batch cannot deadlock with them.
     *
     * @return how many reservations expired
     */
    public int expireBatch(int limit) {
        List<Reservation> due = reservations.claimExpired(limit);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Map<String, SortedMap<StockKey, Long>> released = new TreeMap<>();
        for (Reservation r : due) {
            r.quantities().forEach((key, qty) -> released.computeIfAbsent(r.tenantId, t -> new TreeMap<>()).merge(key, qty, Long::sum));
            transition(r, ReservationStatus.EXPIRED, EventType.EXPIRED, now);
        }
        released.forEach((tenantId, quantities) -> release(tenantId, quantities, now));
        return due.size();
    }

    /** Held units return to their records, with a replenished event for each record that was at 0. */
    private void release(String tenantId, SortedMap<StockKey, Long> quantities, Instant now) {
        stockEvents.crossings(tenantId, stock.move(StockRecords.Move.RELEASE, tenantId, quantities, null), quantities, true, now);
    }

    private ReservationView transition(Reservation r, ReservationStatus to, EventType event, Instant now) {
        r.transitionTo(to, now);
        ReservationView view = ReservationView.of(r);
        outbox.write(event, r.tenantId, r.id, now, view);
        metrics.transitionOnCommit(to);
        OutcomeLog.info(to.name().toLowerCase(), r.tenantId, r.idempotencyKey, r.id, null);
        return view;
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
