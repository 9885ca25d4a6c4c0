package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.Channel;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.settings.TenantSettings;

/**
 * The reservations written under row locks: split and partial requests, requests through a channel, and requests whose
 * reference is capped.
 */
@ApplicationScoped
class LockedReservations {

    @Inject
    OncePerKey once;
    @Inject
    ReservationRepository reservations;
    @Inject
    StockMoves stock;
    @Inject
    RequestGate gate;
    @Inject
    Backorders backorders;
    @Inject
    KitReservations kitReservations;
    @Inject
    HeldViews views;
    @Inject
    NewReservations writer;
    @Inject
    StockholdConfig config;
    @Inject
    java.time.Clock clock;

    /**
     * A request whose quantities depend on what the records have (split or partial), or whose reference is capped: in the
     * transaction that claims the key, the reference is counted under a lock of its own (so two requests of one
     * reference cannot both pass a cap with one place left) and the records are read under their row locks, and the
     * holds that follow take exactly what that read allocated (no race to lose, so partial requests end with every unit
     * held that any of them could take). Never grouped, nor sent as the one statement that claims its own key
     * ({@link NewReservations#ALONE}): the round trips of the locks and the claim are paid only by requests that ask for
     * this or whose tenant caps references.
     */
    ReservationReply reserve(ReservationAttempt a, TenantSettings caps) {
        UUID id = UUID.randomUUID();
        OncePerKey.Reply reply = once.run(a.tenantId(), a.key(), a.fingerprint(), id, () -> {
            ReservationRequest request = a.request();
            Channel channel = gate.admit(a, caps);
            Instant now = dev.stockhold.Clocks.now(clock);
            List<String> skus = request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList();
            // supplies before records: the order every writer of supplies locks them in
            List<Backorders.Supply> supplies = request.backorders() ? backorders.lockSupplies(a.tenantId(), skus) : null;
            List<Candidate> locked = stock.lockCandidates(a.tenantId(), skus);
            List<Candidate> candidates = channel == null ? locked : channel.order(locked);
            Allocation.Bounds bounds = new Allocation.Bounds(config.limits().locationsPerLine(),
                    config.limits().allocationsPerReservation());
            Allocation allocation = request.backorders() ? Allocation.shelf(request.allocationLines(), candidates, bounds)
                    : request.allocationMode() == AllocationMode.WHOLE
                            ? Allocation.of(request.allocationLines(), candidates, new HashMap<>())
                    : Allocation.spread(request.allocationLines(), candidates, request.allocationMode() == AllocationMode.PARTIAL,
                            bounds);
            if (allocation instanceof Allocation.Refused refused) {
                if (kitReservations.anyKit(a.tenantId(), refused.unknown())) {
                    throw new KitReservations.Asked(); // rolls the claim back: made as a kit request
                }
                throw once.refusal(Refusals.of(refused.unknown(), refused.shortSkus(), "nothing was reserved"));
            }
            ReservationView held = allocation instanceof Allocation.Placed placed ? views.held(id, request, placed, now)
                    : views.held(id, request, (Allocation.Spread) allocation, now);
            List<Backorders.Part> promised = supplies == null ? List.of() : promise(request, held, supplies, channel);
            held = held.waiting(Backorders.waits(promised));
            if (!writer.write(a.tenantId(), Map.of(a.key().value(), held), now, Backorders.promiseLines(promised))) {
                throw new IllegalStateException("a stock record locked for reservation " + id + " lacked the units read under the lock");
            }
            if (!promised.isEmpty()) {
                backorders.record(a.tenantId(), held, promised, ttl(request), now);
            }
            return views.created(held);
        });
        return new ReservationReply(reply.response(), reply.replayed());
    }

    /** A backorder request's promises for what the shelf did not give each line; refused when known supply cannot cover it. */
    private List<Backorders.Part> promise(ReservationRequest request, ReservationView held, List<Backorders.Supply> supplies,
            Channel channel) {
        List<Long> shortfalls = new ArrayList<>();
        List<String> shortSkus = new ArrayList<>();
        for (int i = 0; i < request.lines().size(); i++) {
            long shortfall = request.lines().get(i).quantity() - held.lines().get(i).quantity();
            shortfalls.add(shortfall);
            if (shortfall > 0) {
                shortSkus.add(request.lines().get(i).sku());
            }
        }
        List<Backorders.Part> parts = Backorders.promise(supplies, request, shortfalls, channel);
        if (parts == null) {
            throw once.refusal(Refusals.of(List.of(), shortSkus.stream().distinct().toList(),
                    "nothing was reserved: on hand and incoming supply not yet promised cannot cover it"));
        }
        return parts;
    }

    private int ttl(ReservationRequest request) {
        return request.ttlSeconds() == null ? config.reservations().defaultTtlSeconds() : request.ttlSeconds();
    }
}
