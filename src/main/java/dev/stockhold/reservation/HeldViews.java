package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Allocation;

/**
 * The HELD reservation a placed request becomes, on every route, and the answer its key stores. {@link NewReservations}
 * writes it.
 */
@ApplicationScoped
class HeldViews {

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

    /**
     * The HELD reservation a request with kit lines becomes: a kit line with its kit units per location and the component
     * units it holds; a plain line with the records that serve it.
     */
    ReservationView held(UUID id, ReservationRequest request, dev.stockhold.inventory.KitAllocation.Placed placed, Instant now) {
        boolean partial = request.allocationMode() == AllocationMode.PARTIAL;
        List<ReservationView.Line> lines = new ArrayList<>();
        for (int i = 0; i < request.lines().size(); i++) {
            ReservationRequest.Line line = request.lines().get(i);
            List<dev.stockhold.inventory.KitAllocation.Units> units = placed.kitUnits().get(i);
            List<ReservationView.Allocated> parts = units != null
                    ? units.stream().map(u -> new ReservationView.Allocated(u.location(), (int) u.units(), null, null)).toList()
                    : placed.parts().get(i).stream()
                            .map(p -> new ReservationView.Allocated(p.key().location(), (int) p.quantity(), null, null))
                            .toList();
            int quantity = parts.stream().mapToInt(ReservationView.Allocated::quantity).sum();
            List<ReservationView.Component> components = units == null ? null
                    : placed.parts().get(i).stream()
                            .map(p -> new ReservationView.Component(p.key().sku(), (int) p.quantity(), p.key().location())).toList();
            lines.add(new ReservationView.Line(line.sku(), quantity, line.location(), null, null, parts,
                    partial ? line.quantity() - quantity : null, null, null, null, components));
        }
        AllocationMode mode = request.allocationMode();
        return held(id, request, lines, mode == AllocationMode.WHOLE ? null : mode.wire(), now);
    }

    private ReservationView held(UUID id, ReservationRequest request, List<ReservationView.Line> lines, String allocation, Instant now) {
        int ttl = request.ttlSeconds() == null ? config.reservations().defaultTtlSeconds() : request.ttlSeconds();
        return new ReservationView(id, ReservationStatus.HELD, lines, now.plusSeconds(ttl), now, request.reference(), request.metadata(),
                request.deferred() ? Fulfilment.DEFERRED.wire() : null, allocation,
                request.channel());
    }

    /** The 201 stored with the key, byte for byte what the request and every replay of it answer. */
    StoredResponse created(ReservationView held) {
        try {
            return new StoredResponse(201, mapper.writeValueAsString(held), held.location(), held.id());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
