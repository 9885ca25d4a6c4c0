package dev.stockhold.reservation;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import dev.stockhold.LockWait;
import dev.stockhold.OutcomeLog;
import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.IdempotencyKeyReusedException;
import dev.stockhold.idempotency.IdempotencyRepository;
import dev.stockhold.idempotency.Refusal;
import dev.stockhold.idempotency.RequestInProgressException;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.reservation.ReservationMetrics.Outcome;
import dev.stockhold.settings.Settings;
import dev.stockhold.settings.TenantSettings;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemResponses;
import dev.stockhold.web.ProblemType;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * POST /v1/reservations, executed once per (tenant, key): the plain path (one request in its own transaction), its
 * refusals and replays. Single-line requests go through {@link HotSkuGroups}, which runs a request on this plain path
 * whenever its sku is quiet or its group cannot commit as a whole. {@link NewReservations} writes every new reservation.
 */
@ApplicationScoped
public class ReservingService implements HotSkuGroups.PlainPath {

    /** How often a request whose allocation lost a race to another writer is tried again before it is refused. */
    private static final int ALLOCATION_ATTEMPTS = 3;

    private final IdempotencyRepository keys;
    private final StockMoves stock;
    private final HeldViews views;
    private final NewReservations writer;
    private final ReservationMetrics metrics;
    private final ProblemResponses problems;
    private final StockholdConfig config;
    /** Hot-sku grouping; null when turned off. */
    private final HotSkuGroups groups;

    private final LockWait lockWait;
    private final OneStatementReservation oneStatement;
    private final LockedReservations locked;
    private final Settings settings;
    private final java.time.Clock clock;
    private final LocationGuesses guesses;
    private final KitReservations kitReservations;

    ReservingService(IdempotencyRepository keys, LockWait lockWait, StockMoves stock, HeldViews views, NewReservations writer,
            OneStatementReservation oneStatement, LockedReservations locked, ReservationMetrics metrics, ProblemResponses problems,
            StockholdConfig config, Settings settings, java.time.Clock clock,
            LocationGuesses guesses, KitReservations kitReservations) {
        this.keys = keys;
        this.kitReservations = kitReservations;
        this.guesses = guesses;
        this.settings = settings;
        this.clock = clock;
        this.locked = locked;
        this.oneStatement = oneStatement;
        this.lockWait = lockWait;
        this.stock = stock;
        this.views = views;
        this.writer = writer;
        this.metrics = metrics;
        this.problems = problems;
        this.config = config;
        int groupSize = config.reservations().hotSkuGroupSize();
        this.groups = groupSize > 1
                ? new HotSkuGroups(groupSize, keys, stock, views, writer, metrics, this, config.idempotency().inFlightWait(), clock)
                : null;
    }

    /**
     * Executes the request once per (tenant, key). The key, reservation and outbox row are written first and the
     * conditional holds last, so a hot sku's row lock is held only until commit. A refusal rolls all of it back and is
     * then stored on its own, so a retry of the key gets the same refusal.
     */
    @Transactional(Transactional.TxType.NEVER)
    public ReservationReply reserve(String tenantId, IdempotencyKey key, ReservationRequest request) {
        ReservationReply reply;
        try {
            ReservationAttempt attempt = new ReservationAttempt(tenantId, key, request.fingerprint(), request);
            TenantSettings caps = settings.of(tenantId);
            List<String> overLine = Caps.overLine(caps, request.lines());
            if (!overLine.isEmpty()) {
                StoredResponse refusal = new StoredResponse(409, problems.json(Caps.lineRefusal(caps, overLine, "nothing was reserved")),
                        null, null);
                reply = QuarkusTransaction.requiringNew()
                        .call(() -> storeRefusal(attempt, config.idempotency().inFlightWait(), refusal));
            } else if (caps.maxHeldPerReference() != null && request.reference() != null) {
                reply = lockedOrKits(attempt, caps);
            } else if (request.allocationMode() != AllocationMode.WHOLE || request.channel() != null) {
                reply = lockedOrKits(attempt, TenantSettings.NONE);
            } else {
                reply = request.lines().size() == 1 && groups != null
                        ? groups.reserve(attempt)
                        : alone(attempt, config.idempotency().inFlightWait());
            }
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
     * One request on its own: a placed request in one statement ({@link OneStatementReservation}); a refusal, a lost
     * race or a hold that empties a record in its own transaction, where a refusal rolls it back and is then stored on
     * its own.
     *
     * @param keyWait how long to wait for a key an in-flight original holds (then 409 in progress)
     */
    @Override
    public ReservationReply alone(ReservationAttempt a, Duration keyWait) {
        ReservationReply written = inOneStatement(a, keyWait);
        return written != null ? written : inTransaction(a, keyWait);
    }

    /**
     * Placed without a read where {@link LocationGuesses} can ({@code placed}), else by the allocation read; a guess the
     * statement finds stale is placed again from the read.
     *
     * @return the answer, or null when the request needs the transactional path (nothing was written then)
     */
    private ReservationReply inOneStatement(ReservationAttempt a, Duration keyWait) {
        ReservationRequest request = a.request();
        Allocation.Placed guessed = guesses.placed(a.tenantId(), request.allocationLines());
        if (guessed != null) {
            OneShot shot = inOneStatement(a, guessed, keyWait, true);
            boolean hit = shot.result() != OneStatementReservation.Result.MISPLACED;
            metrics.guessed(hit);
            if (hit) {
                return shot.reply();
            }
            guesses.wrong(a.tenantId(), request.allocationLines());
        }
        List<String> skus = request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList();
        Allocation allocation = Allocation.of(request.allocationLines(), candidates(a.tenantId(), skus, null), new HashMap<>());
        if (!(allocation instanceof Allocation.Placed placed)) {
            return null;
        }
        return inOneStatement(a, placed, keyWait, false).reply();
    }

    /** What one statement did, and the answer it gives (null for the transactional path or a stale guess). */
    private record OneShot(OneStatementReservation.Result result, ReservationReply reply) {
    }

    private OneShot inOneStatement(ReservationAttempt a, Allocation.Placed placed, Duration keyWait, boolean guessed) {
        ReservationView held = views.held(a.request(), placed, dev.stockhold.Clocks.now(clock));
        StoredResponse created = views.created(held);
        OneStatementReservation.Result result = oneStatement.write(a, held, created, keyWait, guessed);
        return new OneShot(result, switch (result) {
            case CREATED -> new ReservationReply(created, false);
            case KEY_TAKEN -> replay(a);
            case TRANSACTIONAL_PATH, MISPLACED -> null;
        });
    }

    /** The records of these skus in allocation order ({@link StockMoves#candidates}), remembered for guesses. */
    private List<Candidate> candidates(String tenantId, List<String> skus, Duration lockWait) {
        List<Candidate> candidates = stock.candidates(tenantId, skus, lockWait);
        guesses.read(tenantId, candidates);
        return candidates;
    }

    private ReservationReply inTransaction(ReservationAttempt a, Duration keyWait) {
        try {
            for (int i = 1;; i++) {
                boolean last = i == ALLOCATION_ATTEMPTS;
                try {
                    return QuarkusTransaction.requiringNew().call(() -> attempt(a, keyWait, last));
                } catch (AllocationRaced raced) {
                    // another writer took the units between our read and our hold: allocate again from a fresh read
                }
            }
        } catch (Refusal refused) {
            return QuarkusTransaction.requiringNew().call(() -> storeRefusal(a, keyWait, refused.response()));
        }
    }

    /**
     * One try of the transactional path, in the caller's transaction ({@link #inTransaction}; {@link ReservationWarmUp}
     * runs it in one it rolls back).
     *
     * @param last whether a record taken by another writer since our read refuses the request rather than trying again
     */
    ReservationReply attempt(ReservationAttempt a, Duration keyWait, boolean last) {
        String tenantId = a.tenantId();
        ReservationRequest request = a.request();
        Instant now = dev.stockhold.Clocks.now(clock);
        List<String> skus = request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList();
        Allocation allocation = Allocation.of(request.allocationLines(), candidates(tenantId, skus, keyWait), new HashMap<>());
        if (allocation instanceof Allocation.Refused refused) {
            if (kitReservations.anyKit(tenantId, refused.unknown())) {
                // in a transaction of its own, which claims the key; this one wrote nothing
                return kitReservations.reserve(a, settings.of(tenantId));
            }
            throw refusal(refused.unknown(), refused.shortSkus());
        }
        ReservationView held = views.held(request, (Allocation.Placed) allocation, now);
        StoredResponse created = views.created(held);
        if (!keys.claim(tenantId, a.key(), a.fingerprint(), created)) {
            return replay(a);
        }
        if (writer.write(tenantId, Map.of(a.key().value(), held), now)) {
            return new ReservationReply(created, false);
        }
        if (!last) {
            throw new AllocationRaced();
        }
        throw refusal(List.of(), skus);
    }

    /** The locked path; a request it finds kits in (unknown skus that are kits) is made as a kit request instead. */
    private ReservationReply lockedOrKits(ReservationAttempt attempt, TenantSettings caps) {
        try {
            return locked.reserve(attempt, caps);
        } catch (KitReservations.Asked kitsAsked) {
            return kitReservations.reserve(attempt, caps);
        }
    }

    private Refusal refusal(List<String> unknown, List<String> shortSkus) {
        Problem refusal = Refusals.of(unknown, shortSkus, "nothing was reserved");
        return new Refusal(new StoredResponse(refusal.status(), problems.json(refusal), null, null));
    }

    private ReservationReply storeRefusal(ReservationAttempt a, Duration keyWait, StoredResponse refusal) {
        lockWait.limit(keyWait);
        if (keys.claim(a.tenantId(), a.key(), a.fingerprint(), refusal)) {
            return new ReservationReply(refusal, false);
        }
        return replay(a);
    }

    @Override
    public ReservationReply replay(ReservationAttempt a) {
        return new ReservationReply(keys.replay(a.tenantId(), a.key(), a.fingerprint()), true);
    }

    private void record(String tenantId, IdempotencyKey key, ReservationReply reply) {
        StoredResponse r = reply.response();
        Outcome outcome = reply.replayed() ? Outcome.REPLAYED
                : switch (r.status()) {
                    case 201 -> Outcome.CREATED;
                    // the stored problem's type, not anything a sku could spell in its body
                    case 409 -> r.body().contains("\"type\":\"" + ProblemType.RESERVATION_CAP_EXCEEDED.uri() + "\"")
                            ? Outcome.CAP_EXCEEDED
                            : Outcome.INSUFFICIENT_STOCK;
                    default -> r.body().contains("\"type\":\"" + ProblemType.UNKNOWN_CHANNEL.uri() + "\"") ? Outcome.UNKNOWN_CHANNEL
                            : Outcome.UNKNOWN_SKU;
                };
        metrics.outcome(outcome);
        OutcomeLog.reservation(outcome.tag(), tenantId, key.value(), r.reservationId(), "status=" + r.status());
    }

    /** Thrown out of a request's transaction when a record it was placed on no longer had the units at the hold. */
    private static final class AllocationRaced extends RuntimeException {
        AllocationRaced() {
            super(null, null, false, false);
        }
    }
}
