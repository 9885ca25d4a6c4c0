package dev.stockhold.reservation;

import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;
import dev.stockhold.events.ReservationEventLine;
import dev.stockhold.events.ReservationPromiseLine;

/** Every statement on promises, and on what a reservation waits for ({@link Backorders}). */
@ApplicationScoped
class Promises {

    /** One promise of a reservation's line: its supply (the nil UUID: none), units and the supply's expected date. */
    record Row(int line, UUID supply, long quantity, Instant promisedAt, String sku, String location) {
    }

    /** A promise as a supply sees it: which reservation's line, where, how many, since when the reservation exists. */
    record Waiting(UUID reservation, int line, String sku, String location, long quantity, Instant reservedAt) {
        Waiting withQuantity(long units) {
            return new Waiting(reservation, line, sku, location, units, reservedAt);
        }
    }

    /** A waiting reservation as its events show it after a change. */
    record Reservation(List<ReservationEventLine> lines, List<ReservationPromiseLine> waiting, Instant expiresAt, Instant createdAt,
            String reference, Map<String, String> metadata) {
    }

    private static final String LINES = "SELECT sku, quantity, location FROM reservation_lines WHERE reservation_id = ? ORDER BY line_no";
    private static final String READ = "SELECT expires_at, created_at, reference, metadata FROM reservations WHERE tenant_id = ? AND id = ?";

    @Inject
    Jdbc jdbc;

    /** Locks the reservations waiting for a supply, in id order. */
    void lockWaiting(String tenantId, UUID supply) {
        jdbc.run(Jdbc.Mode.JOIN, BackorderStatements.LOCK_WAITING, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setObject(2, supply);
            ps.setString(3, tenantId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // locked
                }
            }
            return null;
        });
    }

    /** A supply's promises in reservation order. */
    List<Waiting> ofSupply(String tenantId, UUID supply) {
        return jdbc.run(Jdbc.Mode.READ, BackorderStatements.PROMISES_OF, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setObject(2, supply);
            List<Waiting> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Waiting(rs.getObject(1, UUID.class), rs.getInt(2), rs.getString(3), rs.getString(4), rs.getLong(5),
                            rs.getTimestamp(6).toInstant()));
                }
            }
            return found;
        });
    }

    void insert(String tenantId, UUID reservation, int line, String sku, String location, UUID supply, long quantity, Instant promisedAt,
            Instant reservedAt) {
        update(BackorderStatements.INSERT_PROMISE, tenantId, reservation, line, sku, location, supply, quantity,
                promisedAt == null ? null : Timestamp.from(promisedAt), Timestamp.from(reservedAt));
    }

    /** Takes a waiting line's units off its promise from this supply (allocated, or moved elsewhere). */
    void take(String tenantId, Waiting w, UUID supply) {
        int changed = update(BackorderStatements.TAKE_PART, w.quantity(), tenantId, w.reservation(), w.line(), supply, w.quantity());
        if (changed == 0 && update(BackorderStatements.TAKE_ALL, tenantId, w.reservation(), w.line(), supply, w.quantity()) != 1) {
            throw new IllegalStateException("reservation " + w.reservation() + " was not promised " + w.quantity() + " units of " + supply);
        }
    }

    /** The reservation holds these units at the record now: its line there rises, or is added. */
    void addToLine(Waiting w) {
        update(NewReservations.ADD_TO_LINE, (int) w.quantity(), w.reservation(), w.sku(), w.location(), w.reservation(),
                w.reservation(),
                w.sku(), (int) w.quantity(), w.location());
    }

    void forget(String tenantId, UUID reservation) {
        update(BackorderStatements.FORGET, tenantId, reservation, tenantId, reservation);
    }

    /**
     * Writes what the reservation waits for, from its promises; when nothing is promised any more its hold starts now.
     *
     * @param ttl the hold after allocation (a new reservation's); null: as stored
     * @return the reservation as its events show it
     */
    Reservation writeWaits(String tenantId, UUID reservation, Integer ttl, Instant now) {
        List<Row> rows = jdbc.run(Jdbc.Mode.JOIN, BackorderStatements.PROMISES_OF_RESERVATION, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setObject(2, reservation);
            List<Row> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Timestamp at = rs.getTimestamp(4);
                    found.add(new Row(rs.getInt(1), rs.getObject(2, UUID.class), rs.getLong(3), at == null ? null : at.toInstant(),
                            rs.getString(5), rs.getString(6)));
                }
            }
            return found;
        });
        long awaiting = rows.stream().filter(r -> r.promisedAt() != null).mapToLong(Row::quantity).sum();
        update(BackorderStatements.WAITS, awaiting, StoredLines.backordersJson(waits(rows)), ttl, Timestamp.from(now), awaiting == 0,
                Timestamp.from(now), ttl, tenantId, reservation);
        return read(tenantId, reservation, rows);
    }

    /** Per requested line: units promised, the last expected date among them, units unpromised. */
    static List<ReservationView.Backordered> waits(List<Row> rows) {
        Map<Integer, long[]> units = new TreeMap<>();
        Map<Integer, Instant> latest = new TreeMap<>();
        for (Row r : rows) {
            long[] u = units.computeIfAbsent(r.line(), l -> new long[2]);
            u[r.promisedAt() == null ? 1 : 0] += r.quantity();
            if (r.promisedAt() != null) {
                latest.merge(r.line(), r.promisedAt(), (a, b) -> a.isAfter(b) ? a : b);
            }
        }
        List<ReservationView.Backordered> waits = new ArrayList<>();
        units.forEach((line, u) -> waits.add(new ReservationView.Backordered(line, (int) u[0], latest.get(line), (int) u[1])));
        return waits;
    }

    private Reservation read(String tenantId, UUID reservation, List<Row> rows) {
        List<ReservationEventLine> lines = jdbc.run(Jdbc.Mode.READ, LINES, (c, ps) -> {
            ps.setObject(1, reservation);
            List<ReservationEventLine> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String location = rs.getString(3);
                    found.add(new ReservationEventLine(rs.getString(1), rs.getInt(2), location == null ? "default" : location));
                }
            }
            return found;
        });
        List<ReservationPromiseLine> waiting = rows.stream().filter(r -> r.promisedAt() != null)
                .map(r -> new ReservationPromiseLine(r.sku(), r.quantity(), r.location(), r.promisedAt())).toList();
        return jdbc.run(Jdbc.Mode.READ, READ, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setObject(2, reservation);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Reservation(lines, waiting, rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant(), rs.getString(3),
                        ReservationView.metadataOf(rs.getString(4)));
            }
        });
    }

    private int update(String sql, Object... args) {
        return jdbc.run(Jdbc.Mode.JOIN, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        });
    }
}
