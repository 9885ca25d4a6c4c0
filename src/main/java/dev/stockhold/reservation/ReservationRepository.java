package dev.stockhold.reservation;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import dev.stockhold.Jdbc;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;

/**
 * The reservations and reservation_lines tables: new reservations inserted by plain SQL on the hot path (no entity
 * flush), then read, locked and transitioned as entities. Every lookup names the tenant (I5).
 */
@ApplicationScoped
public class ReservationRepository implements PanacheRepositoryBase<Reservation, UUID> {

    private static final String SETTLE_LINE = """
            UPDATE reservation_lines SET fulfilled = fulfilled + ?, released = released + ? WHERE reservation_id = ? AND line_no = ?
            """;
    private static final String INSERT_LINE = """
            INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location) VALUES (?, ?, ?, ?, ?)
            """;

    @Inject
    Jdbc jdbc;

    // The expiry claim: replicas skip rows another replica (or a confirm/cancel) holds, so each row has one owner. A
    // reservation waiting for backordered units does not expire (its partial index holds only those that wait for nothing).
    private static final String CLAIM_EXPIRED = """
            SELECT id FROM reservations
             WHERE %s AND awaiting = 0 AND expires_at <= ?
             ORDER BY expires_at
             LIMIT ?
               FOR UPDATE SKIP LOCKED
            """.formatted(ReservationStatus.sqlIn("status", ReservationStatus.Action.EXPIRE.from()));

    public Optional<Reservation> find(String tenantId, UUID id) {
        return find("id = ?1 and tenantId = ?2", id, tenantId).firstResultOptional();
    }

    /** Locks the reservation row: confirm, cancel and expiry serialize on it, so exactly one wins. */
    public Optional<Reservation> lock(String tenantId, UUID id) {
        return find("id = ?1 and tenantId = ?2", id, tenantId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    /** One page of a listing, newest first; {@code next} is where the following page starts, or null. */
    public record Page(List<Reservation> items, ReservationQuery.Position next) {
    }

    /** A page of GET /v1/reservations: ids by the query's index walk, then those reservations with their lines. */
    public Page page(ReservationQuery query) {
        List<UUID> rows = jdbc.run(Jdbc.Mode.READ, query.sql(), (c, ps) -> {
            List<Object> args = query.arguments();
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            return ids(ps);
        });
        boolean more = rows.size() > query.limit();
        List<UUID> ids = rows.stream().limit(query.limit()).toList();
        if (ids.isEmpty()) {
            return new Page(List.of(), null);
        }
        java.util.Map<UUID, Reservation> byId = new java.util.HashMap<>();
        list("select distinct r from Reservation r left join fetch r.lines where r.id in ?1", ids).forEach(r -> byId.put(r.id, r));
        List<Reservation> items = ids.stream().map(byId::get).toList();
        Reservation last = items.get(items.size() - 1);
        return new Page(items, more ? new ReservationQuery.Position(last.createdAt, last.id) : null);
    }

    /**
     * Locks up to {@code limit} HELD reservations whose hold ran out by {@code now} (the service's clock) that no one
     * else holds.
     */
    public List<Reservation> claimExpired(int limit, Instant now) {
        List<UUID> ids = jdbc.run(Jdbc.Mode.JOIN, CLAIM_EXPIRED, (c, ps) -> {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setInt(2, limit);
            return ids(ps);
        });
        return ids.isEmpty() ? List.of() : list("id in ?1", ids);
    }

    /** The first column of every row: reservation ids. */
    private static List<UUID> ids(PreparedStatement ps) throws SQLException {
        List<UUID> ids = new ArrayList<>();
        try (java.sql.ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getObject(1, UUID.class));
            }
        }
        return ids;
    }

    // Two statements: the count's snapshot is taken after the lock is granted, so it sees what the lock's previous
    // holder committed. hashtextextended: a collision only makes two references wait for each other.
    private static final String LOCK_REFERENCE = """
            SELECT pg_advisory_xact_lock(hashtextextended(? || '/' || ?, 0));
            SELECT count(*) FROM reservations WHERE tenant_id = ? AND reference = ? AND %s AND expires_at > now()
            """.formatted(ReservationStatus.sqlIn("status", ReservationStatus.holding()));

    /**
     * Locks the reference until the caller's transaction ends and counts its HELD, unexpired reservations: one request
     * of the reference at a time counts and then reserves.
     */
    public long lockReference(String tenantId, String reference) {
        return jdbc.run(Jdbc.Mode.JOIN, LOCK_REFERENCE, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, reference);
            ps.setString(3, tenantId);
            ps.setString(4, reference);
            ps.execute();
            ps.getMoreResults();
            try (java.sql.ResultSet rs = ps.getResultSet()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** Units of one line fulfilled and released by one settlement. */
    public record Settled(int fulfilled, int released) {
    }

    /**
     * Adds fulfilled and released units to lines of a reservation the caller has locked, by line number; the only writer
     * of those columns (the entity maps them read-only, so Hibernate never rewrites the lines).
     */
    public void settle(UUID reservationId, Map<Integer, Settled> byLine) {
        jdbc.run(Jdbc.Mode.JOIN, SETTLE_LINE, (c, ps) -> {
            for (Map.Entry<Integer, Settled> e : byLine.entrySet()) {
                ps.setInt(1, e.getValue().fulfilled());
                ps.setInt(2, e.getValue().released());
                ps.setObject(3, reservationId, Types.OTHER);
                ps.setInt(4, e.getKey());
                ps.addBatch();
            }
            ps.executeBatch();
            return null;
        });
    }

    /**
     * Replaces the lines of a HELD reservation the caller has locked, by SQL: the entity's collection is never changed,
     * so Hibernate never rewrites the lines itself.
     */
    public void replaceLines(UUID reservationId, List<ReservationView.Line> lines) {
        jdbc.withConnection(Jdbc.Mode.JOIN, c -> {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM reservation_lines WHERE reservation_id = ?");
                    PreparedStatement insert = c.prepareStatement(INSERT_LINE)) {
                delete.setObject(1, reservationId, Types.OTHER);
                delete.executeUpdate();
                for (int i = 0; i < lines.size(); i++) {
                    insert.setObject(1, reservationId, Types.OTHER);
                    insert.setInt(2, i);
                    insert.setString(3, lines.get(i).sku());
                    insert.setInt(4, lines.get(i).quantity());
                    insert.setString(5, lines.get(i).location());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            return null;
        });
    }
}
