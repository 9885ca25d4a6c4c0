package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Move;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.inventory.StockRecord;
import dev.stockhold.outbox.OutboxWriter;

/**
 * What every new reservation writes, alone or in a hot-sku group: the one place a change to a reservation's rows,
 * events or hold is made.
 */
@ApplicationScoped
class HoldWriter {

    @Inject
    ReservationRepository reservations;
    @Inject
    OutboxWriter outbox;
    @Inject
    StockMoves stock;
    @Inject
    ObjectMapper mapper;
    @Inject
    StockholdConfig config;

    /** The HELD reservation a placed request becomes: its lines at the locations the allocation chose. */
    ReservationView held(ReservationRequest request, Allocation.Placed placed, Instant now) {
        return held(UUID.randomUUID(), request, placed, now);
    }

    /** The same, with the id it is claimed under. */
    ReservationView held(UUID id, ReservationRequest request, Allocation.Placed placed, Instant now) {
        List<ReservationView.Line> lines = new ArrayList<>();
        for (int i = 0; i < request.lines().size(); i++) {
            ReservationRequest.Line line = request.lines().get(i);
            lines.add(new ReservationView.Line(line.sku(), line.quantity(), placed.keys().get(i).location()));
        }
        return held(id, request, lines, null, now);
    }

    /**
     * The HELD reservation a split or partial request becomes: each of its lines with the records that serve it, and
     * (partial) what it did not get.
     */
    ReservationView held(UUID id, ReservationRequest request, Allocation.Spread spread, Instant now) {
        boolean partial = request.allocationMode() == AllocationMode.PARTIAL;
        List<ReservationView.Line> lines = new ArrayList<>();
        for (int i = 0; i < request.lines().size(); i++) {
            ReservationRequest.Line line = request.lines().get(i);
            List<ReservationView.Allocated> parts = spread.lines().get(i).stream()
                    .map(p -> new ReservationView.Allocated(p.key().location(), (int) p.quantity(), null, null)).toList();
            int quantity = parts.stream().mapToInt(ReservationView.Allocated::quantity).sum();
            lines.add(new ReservationView.Line(line.sku(), quantity, line.location(), null, null, parts,
                    partial ? line.quantity() - quantity : null));
        }
        return held(id, request, lines, request.allocationMode().wire(), now);
    }

    private ReservationView held(UUID id, ReservationRequest request, List<ReservationView.Line> lines, String allocation, Instant now) {
        int ttl = request.ttlSeconds() == null ? config.reservations().defaultTtlSeconds() : request.ttlSeconds();
        return new ReservationView(id, ReservationStatus.HELD, lines, now.plusSeconds(ttl), now, request.reference(), request.metadata(),
                request.deferred() ? Fulfilment.DEFERRED.wire() : null, allocation);
    }

    /** The 201 stored with the key, byte for byte what the request and every replay of it answer. */
    StoredResponse created(ReservationView held) {
        try {
            return new StoredResponse(201, mapper.writeValueAsString(held), held.location(), held.id());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The reservations and their lines, one created event each, then (last, so the records' row locks are held only
     * until commit) one conditional hold of their summed quantities per stock record, and a depleted event for each
     * record it empties.
     *
     * Runs in the caller's transaction (no interceptor on this hot path).
     *
     * @param byKey the reservations by idempotency key
     * @return false if some record did not have the units: the caller rolls the transaction back
     */
    boolean write(String tenantId, Map<String, ReservationView> byKey, Instant now) {
        reservations.insertHeldAll(tenantId, byKey);
        List<OutboxWriter.DomainEvent> created = new ArrayList<>();
        SortedMap<StockKey, Long> quantities = new TreeMap<>();
        for (ReservationView view : byKey.values()) {
            created.add(ReservationEvents.created(view));
            view.quantities().forEach((key, qty) -> quantities.merge(key, qty, Long::sum));
        }
        outbox.write(tenantId, created, now);
        // another replica may hold a record: wait for it as long as for an in-flight key
        List<StockRecord> moved = stock.move(Move.HOLD, tenantId, quantities, Source.reservation(null, null, null),
                config.idempotency().inFlightWait(), now);
        return moved.size() == quantities.size();
    }
}
