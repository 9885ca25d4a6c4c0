package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.Channel;
import dev.stockhold.inventory.Kit;
import dev.stockhold.inventory.KitAllocation;
import dev.stockhold.inventory.Kits;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.settings.TenantSettings;
import dev.stockhold.web.ValidationFailedException;

/**
 * Reservations with kit lines ({@link KitAllocation}): the components of every line are read under their row locks in
 * the transaction that claims the key, with the other lines' records, in one ordered statement, and placed against one
 * tally, so lines that share a component never hold more of it than there is. A kit has no stock record, so a request
 * for one first meets "unknown sku" on the path it took: only then are its skus looked up as kits, and the v1 path pays
 * nothing for kits.
 */
@ApplicationScoped
class KitReservations {

    /** Thrown out of a transaction that claimed the key when the request's unknown skus are kits: it is made here instead. */
    static final class Asked extends RuntimeException {
        Asked() {
            super(null, null, false, false);
        }
    }

    @Inject
    OncePerKey once;
    @Inject
    StockMoves stock;
    @Inject
    Kits kits;
    @Inject
    RequestGate gate;
    @Inject
    HeldViews views;
    @Inject
    NewReservations writer;
    @Inject
    StockholdConfig config;
    @Inject
    java.time.Clock clock;

    /** Whether some of these unknown skus are kits of the tenant (one read, on the unknown-sku path only). */
    boolean anyKit(String tenantId, List<String> unknown) {
        return !unknown.isEmpty() && !kits.of(tenantId, unknown).isEmpty();
    }

    ReservationReply reserve(ReservationAttempt a, TenantSettings caps) {
        ReservationRequest request = a.request();
        if (request.backorders()) {
            throw new ValidationFailedException("backorder", "kits are not backordered: a kit line's components are held or refused");
        }
        UUID id = UUID.randomUUID();
        OncePerKey.Reply reply = once.run(a.tenantId(), a.key(), a.fingerprint(), id, () -> {
            Channel channel = gate.admit(a, caps);
            Instant now = dev.stockhold.Clocks.now(clock);
            List<String> asked = request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList();
            Map<String, Kit> kitsAsked = kits.of(a.tenantId(), asked);
            Set<String> skus = new LinkedHashSet<>();
            for (String sku : asked) {
                Kit kit = kitsAsked.get(sku);
                if (kit == null) {
                    skus.add(sku);
                } else {
                    kit.components().forEach(c -> skus.add(c.sku()));
                }
            }
            List<Candidate> locked = stock.lockCandidates(a.tenantId(), new ArrayList<>(skus));
            AllocationMode mode = request.allocationMode();
            Object placed = KitAllocation.place(request.allocationLines(), kitsAsked, channel == null ? locked : channel.order(locked),
                    mode != AllocationMode.WHOLE, mode == AllocationMode.PARTIAL, config.limits().locationsPerLine());
            if (placed instanceof Allocation.Refused refused) {
                throw once.refusal(Refusals.of(refused.unknown(), refused.shortSkus(), "nothing was reserved"));
            }
            ReservationView held = views.held(id, request, (KitAllocation.Placed) placed, now);
            if (!writer.write(a.tenantId(), Map.of(a.key().value(), held), now)) {
                throw new IllegalStateException("a stock record locked for reservation " + id + " lacked the units read under the lock");
            }
            return views.created(held);
        });
        return new ReservationReply(reply.response(), reply.replayed());
    }
}
