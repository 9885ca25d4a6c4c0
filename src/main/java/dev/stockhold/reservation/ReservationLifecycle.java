package dev.stockhold.reservation;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.OutcomeLog;
import dev.stockhold.StockholdConfig;
import dev.stockhold.events.EventType;
import dev.stockhold.inventory.Move;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.outbox.OutboxWriter;
import dev.stockhold.reservation.ReservationStatus.Action;
import dev.stockhold.web.Cursors;

/**
 * A reservation after it was made: read, listed, confirmed, cancelled, extended, expired. Each state change, its stock
 * move and its outbox event in one transaction, under the reservation's row lock.
 */
@ApplicationScoped
@Transactional
public class ReservationLifecycle {

    @Inject
    ReservationRepository reservations;
    @Inject
    StockMoves stock;
    @Inject
    OutboxWriter outbox;
    @Inject
    ReservationMetrics metrics;
    @Inject
    StockholdConfig config;
    @Inject
    Cursors cursors;
    @Inject
    java.time.Clock clock;
    @Inject
    Backorders backorders;

    @Transactional(Transactional.TxType.SUPPORTS)
    public ReservationView get(String tenantId, UUID id) {
        return read(tenantId, id).view();
    }

    /** A reservation and its entity tag, read together. */
    public record Tagged(ReservationView view, String etag) {
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Tagged read(String tenantId, UUID id) {
        return reservations.find(tenantId, id).map(r -> new Tagged(ReservationView.of(r), r.etag()))
                .orElseThrow(() -> new ReservationNotFoundException(id.toString()));
    }

    /** One page of the tenant's reservations, newest first, and the cursor of the next page if there is one. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public ReservationList list(ReservationQuery query) {
        ReservationRepository.Page page = reservations.page(query);
        return new ReservationList(page.items().stream().map(ReservationView::of).toList(),
                page.next() == null ? null : query.encode(page.next(), cursors));
    }

    /**
     * HELD -> CONFIRMED. Idempotent on CONFIRMED (and, with deferred fulfilment, on the statuses fulfilments lead to);
     * refused once the hold expired, even before the expiry job ran.
     */
    public ReservationView confirm(String tenantId, UUID id, String actor) {
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        Instant now = dev.stockhold.Clocks.now(clock);
        if (Action.CONFIRM.done(r.status)) {
            return ReservationView.of(r);
        }
        if (!Action.CONFIRM.allows(r.status)) {
            throw new InvalidReservationStateException(Action.CONFIRM.refusal(r.status));
        }
        if (r.isPastExpiry(now)) {
            throw new InvalidReservationStateException("Reservation expired at " + r.expiresAt + "; it cannot be confirmed");
        }
        if (r.backorders != null) {
            throw new InvalidReservationStateException("Reservation has backordered units not yet allocated; it can be confirmed once "
                    + "they arrive, or cancelled");
        }
        // sold: on hand and held drop; or, deferred, held moves to committed; either way available stays
        stock.move(r.isDeferred() ? Move.COMMIT : Move.SELL, tenantId, r.quantities(), Source.reservation(actor, r.id, null), null, now);
        return transition(r, Action.CONFIRM.to(), now);
    }

    /** HELD -> CANCELLED and the stock returns. Idempotent on CANCELLED. */
    public ReservationView cancel(String tenantId, UUID id) {
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        if (Action.CANCEL.done(r.status)) {
            return ReservationView.of(r);
        }
        if (!Action.CANCEL.allows(r.status)) {
            throw new InvalidReservationStateException(Action.CANCEL.refusal(r.status));
        }
        Instant now = dev.stockhold.Clocks.now(clock);
        backorders.forget(r);
        release(tenantId, r.quantities(), now);
        return transition(r, Action.CANCEL.to(), now);
    }

    /**
     * A HELD reservation not yet past {@code expiresAt} is held until now + ttl (shorter or longer than before), with
     * one extended event. The row lock orders it against confirm, cancel and the expiry job: exactly one of them wins.
     */
    public ReservationView extend(String tenantId, UUID id, int ttlSeconds) {
        Reservation r = reservations.lock(tenantId, id).orElseThrow(() -> new ReservationNotFoundException(id.toString()));
        Instant now = dev.stockhold.Clocks.now(clock);
        if (!Action.EXTEND.allows(r.status) || r.isPastExpiry(now)) {
            throw new InvalidReservationStateException(Action.EXTEND.allows(r.status)
                    ? "Reservation expired at " + r.expiresAt + "; it cannot be extended"
                    : Action.EXTEND.refusal(r.status));
        }
        if (r.lines.isEmpty()) {
            throw new InvalidReservationStateException(
                    "Reservation holds no units yet: its hold starts when its backordered units arrive, and cannot be extended before");
        }
        Instant until = now.plusSeconds(ttlSeconds).truncatedTo(ChronoUnit.MILLIS);
        Instant limit = r.createdAt.plus(config.reservations().maxHold());
        if (until.isAfter(limit)) {
            throw new HoldLimitReachedException(limit);
        }
        r.extendTo(until, now);
        ReservationView view = ReservationView.of(r);
        outbox.write(r.tenantId, List.of(ReservationEvents.of(EventType.EXTENDED, r)), now);
        OutcomeLog.reservation("extended", r.tenantId, r.idempotencyKey, r.id, "expiresAt=" + until);
        return view;
    }

    /**
     * Expires one batch of HELD reservations past their expiry, returning their stock once. Stock is released per
     * (tenant, sku, location) in sorted order, the order every other writer uses, so the batch cannot deadlock with them.
     *
     * @return how many reservations expired
     */
    public int expireBatch(int limit) {
        Instant now = dev.stockhold.Clocks.now(clock);
        List<Reservation> due = reservations.claimExpired(limit, now);
        Map<String, SortedMap<StockKey, Long>> released = new TreeMap<>();
        for (Reservation r : due) {
            r.quantities().forEach((key, qty) -> released.computeIfAbsent(r.tenantId, t -> new TreeMap<>()).merge(key, qty, Long::sum));
            backorders.forget(r); // units left unpromised
            transition(r, Action.EXPIRE.to(), now);
        }
        released.forEach((tenantId, quantities) -> release(tenantId, quantities, now));
        return due.size();
    }

    /** Held units return to their records, with a replenished event for each record that was at 0. */
    private void release(String tenantId, SortedMap<StockKey, Long> quantities, Instant now) {
        stock.move(Move.UNHOLD, tenantId, quantities, Source.reservation(null, null, null), null, now);
    }

    private ReservationView transition(Reservation r, ReservationStatus to, Instant now) {
        r.transitionTo(to, now);
        ReservationView view = ReservationView.of(r);
        outbox.write(r.tenantId, List.of(ReservationEvents.of(to.entered(), r)), now);
        metrics.transitionOnCommit(to);
        OutcomeLog.reservation(to.name().toLowerCase(), r.tenantId, r.idempotencyKey, r.id, null);
        return view;
    }
}
