package dev.stockhold.reservation;

import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;
import dev.stockhold.events.EventType;
import dev.stockhold.events.ReservationAllocatedV1;
import dev.stockhold.events.ReservationEventLine;
import dev.stockhold.events.ReservationPromiseLine;
import dev.stockhold.events.ReservationRepromisedV1;
import dev.stockhold.events.ReservationUnpromisedV1;
import dev.stockhold.inventory.Channel;
import dev.stockhold.inventory.Move;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.outbox.OutboxWriter;

/**
 * Backorders: units of a reservation line promised from incoming supply (open purchase orders, transfers in transit
 * with an expected date) that nobody else was promised, so nothing beyond known supply is ever promised; allocated when
 * the supply arrives, first come first served by reservation time, in the receipt's transaction; moved to the next
 * supply of the same sku and location when a supply ends short, or left unpromised when there is none.
 * <p>
 * Locks, in this order, as every writer takes them: the open supplies of the sku (purchase orders, then transfers, each
 * in id order), the waiting reservations (id order), then stock records. A promise changes only under its reservation's
 * row lock.
 */
@ApplicationScoped
public class Backorders {

    /** An open supply and its units not yet promised (lowered as a request promises them). */
    static final class Supply {
        final UUID id;
        final String sku;
        final String location;
        final Instant expectedAt;
        long open;

        Supply(UUID id, String sku, String location, Instant expectedAt, long open) {
            this.id = id;
            this.sku = sku;
            this.location = location;
            this.expectedAt = expectedAt;
            this.open = open;
        }
    }

    /** Units of requested line {@code line} promised from one supply. */
    record Part(int line, Supply supply, long quantity) {
    }

    @Inject
    Jdbc jdbc;
    @Inject
    StockMoves stock;
    @Inject
    OutboxWriter outbox;
    @Inject
    Promises promises;

    /**
     * Locks every open supply of these skus, then reads them with what each has not promised (a second statement: it sees
     * every promise made by the writers the lock waited for); call before any stock record of them is locked.
     */
    public List<Supply> lockSupplies(String tenantId, Collection<String> skus) {
        jdbc.run(Jdbc.Mode.JOIN, BackorderStatements.LOCK_SUPPLIES, (c, ps) -> {
            bindSkus(c, ps, tenantId, skus);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
        return supplies(Jdbc.Mode.JOIN, BackorderStatements.OPEN_SUPPLIES, tenantId, skus);
    }

    /** The tenant and the skus, for the purchase orders' part and the transfers' part of a supplies statement. */
    private static void bindSkus(java.sql.Connection c, java.sql.PreparedStatement ps, String tenantId, Collection<String> skus)
            throws java.sql.SQLException {
        String[] names = skus.stream().distinct().sorted().toArray(String[]::new);
        ps.setString(1, tenantId);
        ps.setArray(2, c.createArrayOf("varchar", names));
        ps.setString(3, tenantId);
        ps.setArray(4, c.createArrayOf("varchar", names));
    }

    /** The open supplies of these skus in expected order, with what each has not promised, read without locks. */
    public List<Supply> openSupplies(String tenantId, Collection<String> skus) {
        return supplies(Jdbc.Mode.READ, BackorderStatements.OPEN_SUPPLIES, tenantId, skus);
    }

    private List<Supply> supplies(Jdbc.Mode mode, String sql, String tenantId, Collection<String> skus) {
        return jdbc.run(mode, sql, (c, ps) -> {
            bindSkus(c, ps, tenantId, skus);
            ps.setString(5, tenantId);
            List<Supply> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Supply(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getTimestamp(4).toInstant(),
                            rs.getLong(5)));
                }
            }
            return found;
        });
    }

    /**
     * Promises each line's shortfall from the supplies in expected order: those of its sku, at its location if it names
     * one, at the channel's locations if it goes through one, never more than a supply has not promised.
     *
     * @return the parts, or null when known supply cannot cover some line (nothing is promised then)
     */
    static List<Part> promise(List<Supply> supplies, ReservationRequest request, List<Long> shortfalls, Channel channel) {
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < shortfalls.size(); i++) {
            ReservationRequest.Line line = request.lines().get(i);
            long need = shortfalls.get(i);
            for (Supply s : supplies) {
                if (need == 0) {
                    break;
                }
                boolean fits = s.sku.equals(line.sku()) && (line.location() == null || line.location().equals(s.location))
                        && (channel == null || channel.locations().contains(s.location));
                long take = fits ? Math.min(need, s.open) : 0;
                if (take > 0) {
                    parts.add(new Part(i, s, take));
                    s.open -= take;
                    need -= take;
                }
            }
            if (need > 0) {
                return null;
            }
        }
        return parts;
    }

    /** What each line of a new reservation waits for, from its parts. */
    static List<ReservationView.Backordered> waits(List<Part> parts) {
        return Promises.waits(parts.stream().map(p -> new Promises.Row(p.line(), p.supply().id, p.quantity(), p.supply().expectedAt,
                p.supply().sku, p.supply().location)).toList());
    }

    /** What a new reservation was promised, per part, as its created event names it. */
    static List<ReservationPromiseLine> promiseLines(List<Part> parts) {
        return parts.stream()
                .map(p -> new ReservationPromiseLine(p.supply().sku, p.quantity(), p.supply().location, p.supply().expectedAt)).toList();
    }

    /** Writes a new reservation's promises and what it waits for; its row was written just before, in this transaction. */
    void record(String tenantId, ReservationView held, List<Part> parts, int ttl, Instant now) {
        for (Part p : parts) {
            promises.insert(tenantId, held.id(), p.line(), held.lines().get(p.line()).sku(), p.supply().location, p.supply().id,
                    p.quantity(),
                    p.supply().expectedAt, held.createdAt());
        }
        promises.writeWaits(tenantId, held.id(), ttl, now);
    }

    /**
     * Locks the open supplies of the sku and the reservations waiting for this supply: call before the receipt or the
     * end of the supply touches any stock record.
     */
    public void lockFor(String tenantId, String sku, UUID supply) {
        lockSupplies(tenantId, List.of(sku));
        promises.lockWaiting(tenantId, supply);
    }

    /**
     * Units of a supply arrived at its location: they are allocated to the lines waiting for it in reservation order (held
     * there, added to the reservation's lines), one allocated event per reservation.
     *
     * @return the units allocated (the rest stay free on hand)
     */
    public long arrived(String tenantId, UUID supply, long units, Instant now) {
        long left = units;
        Map<UUID, List<Promises.Waiting>> served = new java.util.LinkedHashMap<>();
        for (Promises.Waiting w : promises.ofSupply(tenantId, supply)) {
            long take = Math.min(left, w.quantity());
            if (take == 0) {
                break;
            }
            served.computeIfAbsent(w.reservation(), r -> new ArrayList<>()).add(w.withQuantity(take));
            left -= take;
        }
        served.forEach((reservation, taken) -> {
            SortedMap<StockKey, Long> quantities = new TreeMap<>();
            taken.forEach(w -> quantities.merge(new StockKey(w.sku(), w.location()), w.quantity(), Long::sum));
            if (stock.move(Move.ALLOCATE, tenantId, quantities, Source.reservation(null, reservation, null), null, now).size() != quantities
                    .size()) {
                throw new IllegalStateException("a record lacked units that had just arrived for reservation " + reservation);
            }
            taken.forEach(w -> {
                promises.take(tenantId, w, supply);
                promises.addToLine(w);
            });
            Promises.Reservation r = promises.writeWaits(tenantId, reservation, null, now);
            List<ReservationEventLine> allocated = taken.stream()
                    .map(w -> new ReservationEventLine(w.sku(), (int) w.quantity(), w.location()))
                    .toList();
            write(tenantId, EventType.ALLOCATED, reservation, new ReservationAllocatedV1(reservation, "HELD", r.lines(), allocated,
                    r.waiting().isEmpty() ? null : r.waiting(), r.expiresAt(), r.createdAt(), r.reference(), r.metadata()), now);
        });
        return units - left;
    }

    /**
     * A supply will deliver no more: what it still promised moves to the next supply of the same sku and location with
     * units not promised (repromised), or, with none, is left unpromised; one event per reservation.
     */
    public void ended(String tenantId, UUID supply, String sku, String location, Instant now) {
        List<Promises.Waiting> left = promises.ofSupply(tenantId, supply);
        if (left.isEmpty()) {
            return;
        }
        List<Supply> next = lockSupplies(tenantId, List.of(sku)).stream().filter(s -> !s.id.equals(supply) && s.location.equals(location))
                .toList();
        Map<UUID, List<ReservationPromiseLine>> repromised = new java.util.LinkedHashMap<>();
        Map<UUID, List<ReservationPromiseLine>> unpromised = new java.util.LinkedHashMap<>();
        for (Promises.Waiting w : left) {
            promises.take(tenantId, w, supply);
            long need = w.quantity();
            for (Supply s : next) {
                long take = Math.min(need, s.open);
                if (take > 0) {
                    promises.insert(tenantId, w.reservation(), w.line(), sku, location, s.id, take, s.expectedAt, w.reservedAt());
                    repromised.computeIfAbsent(w.reservation(), r -> new ArrayList<>())
                            .add(new ReservationPromiseLine(sku, take, location, s.expectedAt));
                    s.open -= take;
                    need -= take;
                }
            }
            if (need > 0) {
                promises.insert(tenantId, w.reservation(), w.line(), sku, location, UUID.fromString(BackorderStatements.NO_SUPPLY), need,
                        null,
                        w.reservedAt());
                unpromised.computeIfAbsent(w.reservation(), r -> new ArrayList<>())
                        .add(new ReservationPromiseLine(sku, need, location, null));
            }
        }
        java.util.Set<UUID> changed = new java.util.LinkedHashSet<>(repromised.keySet());
        changed.addAll(unpromised.keySet());
        for (UUID reservation : changed) {
            Promises.Reservation r = promises.writeWaits(tenantId, reservation, null, now);
            if (repromised.containsKey(reservation)) {
                write(tenantId, EventType.REPROMISED, reservation, new ReservationRepromisedV1(reservation, "HELD", r.lines(),
                        repromised.get(reservation), r.expiresAt(), r.createdAt(), r.reference(), r.metadata()), now);
            }
            if (unpromised.containsKey(reservation)) {
                write(tenantId, EventType.UNPROMISED, reservation, new ReservationUnpromisedV1(reservation, "HELD", r.lines(),
                        unpromised.get(reservation), r.expiresAt(), r.createdAt(), r.reference(), r.metadata()), now);
            }
        }
    }

    /**
     * A reservation that ends (cancel, expiry) gives back what it was promised: the supply may promise it again, and the
     * reservation waits for nothing any more.
     */
    void forget(Reservation r) {
        if (r.backorders != null) {
            promises.forget(r.tenantId, r.id);
            r.backorders = null; // the columns are written by these statements only: the entity follows them
            r.awaiting = 0;
        }
    }

    private void write(String tenantId, EventType type, UUID reservation, Record data, Instant now) {
        outbox.write(tenantId, List.of(OutboxWriter.DomainEvent.ofReservation(type, reservation, data)), now);
    }
}
