package dev.stockhold.reservation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.Candidate;
import dev.stockhold.inventory.Channel;
import dev.stockhold.inventory.Channels;
import dev.stockhold.inventory.Kit;
import dev.stockhold.inventory.KitAllocation;
import dev.stockhold.inventory.Kits;
import dev.stockhold.inventory.StockMoves;

/**
 * The dry run of POST /v1/reservations: one read of the records, without locks, placed by the same {@link Allocation}
 * rules a reservation made now would meet. Writes nothing (no key, no outbox row), so a concurrent writer may change the
 * answer a moment later; on a quiet system the reservation lands where this says. Through a channel, only its locations
 * count, in its order.
 */
@ApplicationScoped
public class Availability {

    @Inject
    StockMoves stock;

    @Inject
    Channels channels;

    @Inject
    Backorders backorders;

    @Inject
    Kits kits;

    @Inject
    dev.stockhold.inventory.SupplyDates supplyDates;

    @Inject
    dev.stockhold.StockholdConfig config;

    public AvailabilityView of(String tenantId, AvailabilityRequest asked) {
        ReservationRequest request = asked.asReservation();
        AllocationMode mode = request.allocationMode();
        List<Allocation.Line> lines = request.allocationLines();
        Channel channel = asked.channel() == null ? null : channels.require(tenantId, asked.channel());
        List<Candidate> read = stock.candidates(tenantId, lines.stream().map(Allocation.Line::sku).distinct().toList(), null);
        List<Candidate> candidates = channel == null ? read : channel.order(read);
        if (request.backorders()) {
            return backorder(tenantId, request, candidates, channel);
        }
        Map<String, Kit> kitsAsked = kitsAmong(tenantId, lines, read);
        if (!kitsAsked.isEmpty()) {
            return withKits(tenantId, request, kitsAsked, channel);
        }

        // the lines of a request never share a record (distinct (sku, location) pairs, no sku both with and without a
        // location), so each line is placed on its own exactly as in the request
        List<List<Allocation.Part>> parts = new ArrayList<>();
        List<Long> served = new ArrayList<>();
        List<List<AvailabilityView.Stock>> available = new ArrayList<>();
        boolean anyUnknown = false;
        boolean allServed = true;
        boolean anyServed = false;
        int allocationsLeft = config.limits().allocationsPerReservation();
        for (Allocation.Line line : lines) {
            Allocation placed = mode == AllocationMode.WHOLE
                    ? Allocation.of(List.of(line), candidates, new HashMap<>())
                    : Allocation.spread(List.of(line), candidates, true,
                            new Allocation.Bounds(config.limits().locationsPerLine(), allocationsLeft));
            List<Allocation.Part> taken = placed instanceof Allocation.Placed p
                    ? List.of(new Allocation.Part(p.keys().get(0), line.quantity()))
                    : placed instanceof Allocation.Spread s ? s.lines().get(0) : List.of();
            allocationsLeft -= mode == AllocationMode.WHOLE ? 0 : taken.size();
            long units = taken.stream().mapToLong(Allocation.Part::quantity).sum();
            List<AvailabilityView.Stock> at = candidates.stream().filter(c -> c.key().sku().equals(line.sku())
                    && (line.location() == null || c.key().location().equals(line.location())))
                    .map(c -> new AvailabilityView.Stock(c.key().location(), c.available())).toList();
            parts.add(taken);
            served.add(units);
            available.add(at);
            anyUnknown |= at.isEmpty();
            allServed &= units == line.quantity();
            anyServed |= units > 0;
        }
        boolean reservable = !anyUnknown && (mode == AllocationMode.PARTIAL ? anyServed : allServed);

        List<AvailabilityView.Line> placed = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Allocation.Line line = lines.get(i);
            long units = served.get(i);
            // a request that would be refused holds nothing anywhere
            List<ReservationView.Allocated> placement = reservable ? parts.get(i).stream()
                    .map(p -> new ReservationView.Allocated(p.key().location(), (int) p.quantity(), null, null)).toList() : List.of();
            placed.add(new AvailabilityView.Line(line.sku(), (int) line.quantity(), line.location(), units == line.quantity(),
                    available.get(i), placement,
                    mode == AllocationMode.PARTIAL ? (int) (line.quantity() - (reservable ? units : 0)) : null));
        }
        return new AvailabilityView(reservable, mode.wire(), placed, asked.channel());
    }

    /**
     * The dry run of a backorder reservation: the shelf split as the reservation would take it, the rest promised from the
     * open supplies in expected order (read without locks), and per line what could be promised now and by each date.
     */
    private AvailabilityView backorder(String tenantId, ReservationRequest request, List<Candidate> candidates, Channel channel) {
        List<Allocation.Line> lines = request.allocationLines();
        Allocation shelf = Allocation.shelf(lines, candidates,
                new Allocation.Bounds(config.limits().locationsPerLine(), config.limits().allocationsPerReservation()));
        List<Backorders.Supply> supplies = backorders.openSupplies(tenantId, lines.stream().map(Allocation.Line::sku).distinct().toList());
        List<List<Allocation.Part>> parts = shelf instanceof Allocation.Spread spread ? spread.lines()
                : lines.stream().map(l -> List.<Allocation.Part>of()).toList();
        List<Long> shortfalls = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            shortfalls.add(lines.get(i).quantity() - parts.get(i).stream().mapToLong(Allocation.Part::quantity).sum());
        }
        List<Backorders.Part> promised = shelf instanceof Allocation.Spread ? Backorders.promise(supplies, request, shortfalls, channel)
                : null;
        boolean reservable = promised != null;
        List<ReservationView.Backordered> waits = reservable ? Backorders.waits(promised) : List.of();
        List<AvailabilityView.Line> placed = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Allocation.Line line = lines.get(i);
            int index = i;
            List<AvailabilityView.Stock> at = candidates.stream().filter(c -> c.key().sku().equals(line.sku())
                    && (line.location() == null || c.key().location().equals(line.location())))
                    .map(c -> new AvailabilityView.Stock(c.key().location(), c.available())).toList();
            List<ReservationView.Allocated> placement = reservable ? parts.get(i).stream()
                    .map(p -> new ReservationView.Allocated(p.key().location(), (int) p.quantity(), null, null)).toList() : List.of();
            ReservationView.Backordered wait = waits.stream().filter(w -> w.line() == index).findFirst().orElse(null);
            List<String> where = line.location() != null ? List.of(line.location()) : channel != null ? channel.locations() : null;
            long now = at.stream().mapToLong(AvailabilityView.Stock::available).sum();
            placed.add(new AvailabilityView.Line(line.sku(), (int) line.quantity(), line.location(), reservable, at, placement, null,
                    wait == null || wait.backordered() == 0 ? null : wait.backordered(), wait == null ? null : wait.promisedAt(),
                    supplyDates.of(tenantId, line.sku(), now, where)));
        }
        return new AvailabilityView(reservable, request.allocationMode().wire(), placed, request.channel());
    }

    /** The kits among the skus without a record (a kit has none): read only when some sku has none. */
    private Map<String, Kit> kitsAmong(String tenantId, List<Allocation.Line> lines, List<Candidate> read) {
        List<String> missing = lines.stream().map(Allocation.Line::sku)
                .filter(sku -> read.stream().noneMatch(c -> c.key().sku().equals(sku)))
                .distinct().toList();
        return missing.isEmpty() ? Map.of() : kits.of(tenantId, missing);
    }

    /**
     * The dry run of a request with kit lines ({@link KitAllocation}): a kit line's available at each location is the floor
     * over its components of what they have there per kit unit.
     */
    private AvailabilityView withKits(String tenantId, ReservationRequest request, Map<String, Kit> kitsAsked, Channel channel) {
        List<Allocation.Line> lines = request.allocationLines();
        Set<String> skus = new LinkedHashSet<>();
        lines.forEach(l -> {
            Kit kit = kitsAsked.get(l.sku());
            if (kit == null) {
                skus.add(l.sku());
            } else {
                kit.components().forEach(c -> skus.add(c.sku()));
            }
        });
        List<Candidate> read = stock.candidates(tenantId, List.copyOf(skus), null);
        List<Candidate> candidates = channel == null ? read : channel.order(read);
        AllocationMode mode = request.allocationMode();
        Object placed = KitAllocation.place(lines, kitsAsked, candidates, mode != AllocationMode.WHOLE, mode == AllocationMode.PARTIAL,
                config.limits().locationsPerLine());
        boolean reservable = placed instanceof KitAllocation.Placed;
        List<AvailabilityView.Line> answered = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Allocation.Line line = lines.get(i);
            Kit kit = kitsAsked.get(line.sku());
            List<Kit.Component> components = kit == null ? List.of(new Kit.Component(line.sku(), 1)) : kit.components();
            Set<String> locations = new LinkedHashSet<>();
            candidates.stream().filter(c -> components.stream().anyMatch(k -> k.sku().equals(c.key().sku()))
                    && (line.location() == null || c.key().location().equals(line.location())))
                    .forEach(c -> locations.add(c.key().location()));
            List<AvailabilityView.Stock> at = locations.stream().map(location -> new AvailabilityView.Stock(location, components.stream()
                    .mapToLong(k -> candidates.stream().filter(c -> c.key().sku().equals(k.sku()) && c.key().location().equals(location))
                            .mapToLong(Candidate::available).sum() / k.quantity())
                    .min().orElse(0))).toList();
            List<ReservationView.Allocated> placement = List.of();
            long units = 0;
            if (placed instanceof KitAllocation.Placed p) {
                placement = kit != null
                        ? p.kitUnits().get(i).stream().map(u -> new ReservationView.Allocated(u.location(), (int) u.units(), null, null))
                                .toList()
                        : p.parts().get(i).stream()
                                .map(x -> new ReservationView.Allocated(x.key().location(), (int) x.quantity(), null, null))
                                .toList();
                units = placement.stream().mapToLong(ReservationView.Allocated::quantity).sum();
            }
            answered.add(
                    new AvailabilityView.Line(line.sku(), (int) line.quantity(), line.location(), units == line.quantity(), at, placement,
                            mode == AllocationMode.PARTIAL ? (int) (line.quantity() - units) : null));
        }
        return new AvailabilityView(reservable, mode.wire(), answered, request.channel());
    }
}
