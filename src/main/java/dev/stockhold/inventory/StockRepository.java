package dev.stockhold.inventory;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;
import dev.stockhold.LockWait;

/**
 * Every statement on stock_records, stock_movements (the ledger) and locations. Reservations move only {@code held} and {@code committed} (and
 * {@code on_hand} when a confirm or a fulfilment sells), admins only {@code on_hand}, so neither can undo the other (I7). Multi-record moves lock their
 * records in {@link StockKey} order in one statement, so carts over the same records cannot deadlock. The admin writes
 * may only join a transaction; the reservation path's statements run in its caller's transaction without an
 * interceptor of their own (they are on every request's path).
 */
@ApplicationScoped
public class StockRepository {

    /** The columns {@link #record(ResultSet)} reads, in its order. */
    static final String COLUMNS = "s.sku, s.location, s.on_hand, s.held, s.committed, s.version, s.updated_at, s.safety_stock, "
            + "s.low_stock_threshold";

    /** How a reservation moves the records it holds. */
    public enum Move {
        /**
         * I1: held rises only where on hand covers it above the safety stock; a record that does not is left unchanged
         * and not returned.
         */
        HOLD("held = s.held + w.quantity", " AND s.on_hand - s.held - s.committed - s.safety_stock >= w.quantity", null, null, null),
        /** Cancel and expiry: the held units are free again. */
        RELEASE("held = s.held - w.quantity", "", null, null, null),
        /** Confirm: the held units are sold, available is unchanged. */
        SELL("held = s.held - w.quantity, on_hand = s.on_hand - w.quantity", "", "confirm", "-w.quantity", "0"),
        /** Confirm with deferred fulfilment: the held units are committed, on hand and available are unchanged. */
        COMMIT("held = s.held - w.quantity, committed = s.committed + w.quantity", "", "confirm", "0", "w.quantity"),
        /** A fulfilment: committed units leave the location. Only where that many are committed; else not returned. */
        FULFIL("committed = s.committed - w.quantity, on_hand = s.on_hand - w.quantity", " AND s.committed >= w.quantity", "fulfil",
                "-w.quantity", "-w.quantity"),
        /** A release: committed units are free again. Only where that many are committed; else not returned. */
        UNCOMMIT("committed = s.committed - w.quantity", " AND s.committed >= w.quantity", "release", "0", "-w.quantity"),
        /**
         * An edit of a HELD reservation: signed quantities, held falls where they are negative and rises only where on
         * hand covers the rise (I1); a record that does not cover it is left unchanged and not returned.
         */
        SHIFT("held = s.held + w.quantity", " AND (w.quantity <= 0 OR s.on_hand - s.held - s.committed - s.safety_stock >= w.quantity)",
                null, null, null);

        private final String sql;
        /** The same for one record: nothing to order, so no array, sort or CTE for the planner and executor. */
        private final String one;
        /** Whether the move changes on hand or committed, and so writes a ledger entry per record (holds do not). */
        private final boolean ledger;

        Move(String set, String condition, String kind, String onHandDelta, String committedDelta) {
            this.ledger = kind != null;
            String update = """
                    UPDATE stock_records s SET %s,%s updated_at = now() FROM %s
                     WHERE s.tenant_id = ? AND s.sku = %s AND s.location = %s%s
                    RETURNING %s""";
            String bump = ledger ? " movements = s.movements + 1," : "";
            String oneUpdate = update.formatted(set, bump, "(SELECT ?::bigint AS quantity) w", "?", "?", condition,
                    ledger ? COLUMNS + ", " + Ledger.returning(onHandDelta, committedDelta) : COLUMNS);
            // The MATERIALIZED select locks the records in (sku, location) order before the update touches any.
            String ordered = """
                    WITH wanted AS (SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::bigint[]) AS w(sku, location, quantity)),
                    locked AS MATERIALIZED (
                        SELECT s.sku FROM stock_records s JOIN wanted w ON s.sku = w.sku AND s.location = w.location
                         WHERE s.tenant_id = ? ORDER BY s.sku, s.location FOR UPDATE OF s)%s
                    """;
            String manyUpdate = update.formatted(set, bump, "wanted w, (SELECT count(*) FROM locked) AS all_locked", "w.sku", "w.location",
                    condition, ledger ? COLUMNS + ", " + Ledger.returning(onHandDelta, committedDelta) : COLUMNS);
            if (ledger) {
                this.one = Ledger.wrap("WITH ", oneUpdate, kind);
                this.sql = ordered.formatted(Ledger.wrap(",\n", manyUpdate, kind));
            } else {
                this.one = oneUpdate;
                this.sql = ordered.formatted("\n" + manyUpdate);
            }
        }
    }

    /**
     * The movement ledger's half of a statement that changes on hand or committed: the change's UPDATE becomes the CTE
     * {@code moved}, whose rows the same statement writes to stock_movements (one entry each, seq = the record's new
     * {@code movements}), and the statement answers the records as before. One round trip, and the entry commits exactly
     * when the change does. The entry's parameters ({@link Source}) follow the change's.
     */
    static final class Ledger {

        private Ledger() {
        }

        static String returning(String onHandDelta, String committedDelta) {
            return "s.tenant_id, s.movements, (" + onHandDelta + ")::bigint AS on_hand_delta, (" + committedDelta
                    + ")::bigint AS committed_delta";
        }

        static String wrap(String lead, String update, String kind) {
            return lead + "moved AS (\n" + update + "),\n" + """
                    entry AS (
                        INSERT INTO stock_movements (tenant_id, sku, location, seq, kind, on_hand_delta, committed_delta, on_hand_after,
                                                     committed_after, version, reason, reference, actor, reservation_id, idempotency_key)
                        SELECT tenant_id, sku, location, movements, '%s', on_hand_delta, committed_delta, on_hand, committed, version,
                               ?, ?, ?, ?::uuid, ? FROM moved)
                    SELECT sku, location, on_hand, held, committed, version, updated_at, safety_stock, low_stock_threshold FROM moved"""
                    .formatted(kind);
        }
    }

    /**
     * Who and what caused a change of on hand or committed, as its ledger entry records it: the token's subject, the
     * reservation and the Idempotency-Key where there is one, the reason and reference an admin gave.
     */
    public record Source(String actor, java.util.UUID reservationId, String idempotencyKey, String reason, String reference) {

        public static Source of(String actor) {
            return new Source(actor, null, null, null, null);
        }

        void bind(PreparedStatement ps, int from) throws SQLException {
            ps.setString(from, reason);
            ps.setString(from + 1, reference);
            ps.setString(from + 2, actor);
            ps.setObject(from + 3, reservationId == null ? null : reservationId.toString());
            ps.setString(from + 4, idempotencyKey);
        }
    }

    /** A record that may serve a line, in allocation order, with what a reservation may take from it. */
    public record Candidate(StockKey key, long available) {
    }

    private static final String CANDIDATES = """
            SELECT s.sku, s.location, greatest(s.on_hand - s.held - s.committed - s.safety_stock, 0) FROM stock_records s
              LEFT JOIN locations l ON l.tenant_id = s.tenant_id AND l.location = s.location
             WHERE s.tenant_id = ? AND s.sku = ANY (?)
             ORDER BY coalesce(l.priority, 100), s.location
            """;
    // The MATERIALIZED select locks the records in (sku, location) order, as every multi-record move does, and reads
    // them as they are once locked; the outer query puts them in allocation order.
    private static final String LOCKED_CANDIDATES = """
            WITH locked AS MATERIALIZED (
                SELECT s.sku, s.location, greatest(s.on_hand - s.held - s.committed - s.safety_stock, 0) AS available
                  FROM stock_records s
                 WHERE s.tenant_id = ? AND s.sku = ANY (?) ORDER BY s.sku, s.location FOR UPDATE OF s)
            SELECT k.sku, k.location, k.available FROM locked k
              LEFT JOIN locations l ON l.tenant_id = ? AND l.location = k.location
             ORDER BY coalesce(l.priority, 100), k.location
            """;
    /** The allocation read of a one-sku request. */
    private static final String CANDIDATES_OF_ONE = CANDIDATES.replace("s.sku = ANY (?)", "s.sku = ?");
    private static final String FIND = "SELECT " + COLUMNS + " FROM stock_records s WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ?";
    private static final String LOCK = FIND + " FOR UPDATE";
    private static final String OF_SKU = "SELECT " + COLUMNS
            + " FROM stock_records s WHERE s.tenant_id = ? AND s.sku = ? ORDER BY s.location";
    // A new record takes its location's defaults. The location's row is locked (shared) while the record is created,
    // so a concurrent change of the defaults either comes first and is read, or waits and then finds the record.
    private static final String CREATE = """
            INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received, version, safety_stock, low_stock_threshold)
            SELECT l.tenant_id, ?, l.location, 0, 0, 0, 0, l.safety_stock, l.low_stock_threshold FROM locations l
             WHERE l.tenant_id = ? AND l.location = ? FOR SHARE OF l
            ON CONFLICT DO NOTHING
            """;
    // I7: an absolute set of on hand, never below held and committed; received moves by the same amount, so
    // on_hand = received - sold stays auditable (I2)
    private static final String SET = Ledger.wrap("WITH ", """
            UPDATE stock_records s SET received = s.received + ? - s.on_hand, on_hand = ?, version = s.version + 1,
                   movements = s.movements + 1, updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ? AND ? >= s.held + s.committed
            RETURNING\s""" + COLUMNS + ", " + Ledger.returning("?", "0"), "set");
    // I1, I7: a delta, never below what is held and committed (and so never below zero)
    private static final String ADJUST = Ledger.wrap("WITH ", """
            UPDATE stock_records s SET on_hand = s.on_hand + ?, received = s.received + ?, version = s.version + 1,
                   movements = s.movements + 1, updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ? AND s.on_hand + ? >= s.held + s.committed
            RETURNING\s""" + COLUMNS + ", " + Ledger.returning("?", "0"), "adjust");
    // A count with the changes since it: on hand as counted, received moving with it (I2), the count's time kept
    private static final String SNAPSHOT = Ledger.wrap("WITH ", """
            UPDATE stock_records s SET received = s.received + ? - s.on_hand, on_hand = ?, version = s.version + 1,
                   movements = s.movements + 1, counted_at = ?, updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ? AND ? >= s.held + s.committed
            RETURNING\s""" + COLUMNS + ", " + Ledger.returning("?", "0"), "snapshot");
    private static final String COUNTED = "UPDATE stock_records SET counted_at = ? WHERE tenant_id = ? AND sku = ? AND location = ?";
    private static final String LOCK_COUNTED = "SELECT " + COLUMNS + """
            , s.counted_at FROM stock_records s WHERE s.tenant_id = ? AND s.location = ? AND (? OR s.sku = ANY (?::varchar[]))
             ORDER BY s.sku FOR UPDATE""";
    private static final String CREATE_MANY = """
            INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received, version, safety_stock, low_stock_threshold)
            SELECT l.tenant_id, w.sku, l.location, 0, 0, 0, 0, l.safety_stock, l.low_stock_threshold
              FROM (SELECT * FROM locations WHERE tenant_id = ? AND location = ? FOR SHARE) l, unnest(?::varchar[]) AS w(sku)
             ORDER BY w.sku
            ON CONFLICT DO NOTHING
            """;
    private static final String NEWEST_FIRST = """
            SELECT on_hand_delta, created_at FROM stock_movements WHERE tenant_id = ? AND sku = ? AND location = ? ORDER BY seq DESC""";
    private static final String ENSURE_LOCATION = "INSERT INTO locations (tenant_id, location) VALUES (?, ?) ON CONFLICT DO NOTHING";
    // Defaults not given (NULL) keep their value.
    private static final String PUT_LOCATION = """
            INSERT INTO locations AS l (tenant_id, location, priority, safety_stock, low_stock_threshold)
            VALUES (?, ?, ?, coalesce(?::bigint, 0), coalesce(?::bigint, 0))
            ON CONFLICT (tenant_id, location) DO UPDATE SET priority = EXCLUDED.priority,
                   safety_stock = coalesce(?::bigint, l.safety_stock), low_stock_threshold = coalesce(?::bigint, l.low_stock_threshold), updated_at = now()
            RETURNING location, priority, safety_stock, low_stock_threshold
            """;
    // The records that take the location's defaults, moved to them in sku order; each answered as it was and as it is.
    private static final String TAKE_DEFAULTS = """
            WITH before AS MATERIALIZED (
                SELECT s.sku, s.safety_stock, s.low_stock_threshold FROM stock_records s
                 WHERE s.tenant_id = ? AND s.location = ? AND (s.own_safety_stock IS NULL OR s.own_low_stock_threshold IS NULL)
                 ORDER BY s.sku FOR UPDATE OF s)
            UPDATE stock_records s SET safety_stock = coalesce(s.own_safety_stock, ?), low_stock_threshold = coalesce(s.own_low_stock_threshold, ?)
              FROM before b
             WHERE s.tenant_id = ? AND s.location = ? AND s.sku = b.sku
               AND (s.safety_stock <> coalesce(s.own_safety_stock, ?) OR s.low_stock_threshold <> coalesce(s.own_low_stock_threshold, ?))
            RETURNING\s"""
            + COLUMNS + ", b.safety_stock, b.low_stock_threshold";
    // A record's own values, where given (NULL keeps them), and the values in force that follow from them.
    private static final String OWN_LIMITS = """
            UPDATE stock_records s SET own_safety_stock = coalesce(?::bigint, s.own_safety_stock),
                   own_low_stock_threshold = coalesce(?::bigint, s.own_low_stock_threshold),
                   safety_stock = coalesce(?::bigint, s.own_safety_stock, (SELECT l.safety_stock FROM locations l
                                   WHERE l.tenant_id = s.tenant_id AND l.location = s.location), 0),
                   low_stock_threshold = coalesce(?::bigint, s.own_low_stock_threshold, (SELECT l.low_stock_threshold FROM locations l
                                   WHERE l.tenant_id = s.tenant_id AND l.location = s.location), 0),
                   updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ?
            RETURNING\s""" + COLUMNS;
    private static final String LOCATIONS = """
            SELECT location, priority, safety_stock, low_stock_threshold FROM (
                SELECT location, priority, safety_stock, low_stock_threshold FROM locations WHERE tenant_id = ?
                UNION ALL
                SELECT 'default', 100, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM locations WHERE tenant_id = ? AND location = 'default')) l
             ORDER BY priority, location
            """;

    @Inject
    Jdbc jdbc;

    /**
     * The records of these skus, in allocation order: location priority (100 unless set), then name.
     *
     * @param lockWait how long this transaction's later statements may wait for a lock; set in the same round trip
     */
    public List<Candidate> candidates(String tenantId, Collection<String> skus, Duration lockWait) {
        boolean one = skus.size() == 1;
        return jdbc.run(withLockWait(lockWait, one ? CANDIDATES_OF_ONE : CANDIDATES), (c, ps) -> {
            ps.setString(1, tenantId);
            if (one) {
                ps.setString(2, skus.iterator().next());
            } else {
                ps.setArray(2, c.createArrayOf("varchar", skus.toArray()));
            }
            List<Candidate> found = new ArrayList<>();
            try (ResultSet rs = lastResult(ps)) {
                while (rs.next()) {
                    found.add(candidate(rs));
                }
            }
            return found;
        });
    }

    /**
     * The records of these skus in allocation order, locked until the caller's transaction ends: what they have
     * available cannot change before the caller's holds. For requests that split or take what there is, whose
     * quantities depend on that.
     */
    public List<Candidate> lockCandidates(String tenantId, Collection<String> skus) {
        return jdbc.run(LOCKED_CANDIDATES, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setArray(2, c.createArrayOf("varchar", skus.toArray()));
            ps.setString(3, tenantId);
            List<Candidate> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(candidate(rs));
                }
            }
            return found;
        });
    }

    /**
     * Moves every record by its quantity in one statement and round trip, locking them in {@link StockKey} order.
     *
     * @param lockWait how long to wait for a record another transaction holds (set in the same round trip); null: as is
     * @return the records as moved; for {@link Move#HOLD}, a record missing from the answer did not have the units
     */
    public List<StockRecord> move(Move move, String tenantId, SortedMap<StockKey, ? extends Number> quantities, Duration lockWait) {
        if (move.ledger) {
            throw new IllegalArgumentException(move + " writes ledger entries: say who caused it");
        }
        return move(move, tenantId, quantities, lockWait, null);
    }

    /** A move that changes on hand or committed, with the source its ledger entries record. */
    public List<StockRecord> move(Move move, String tenantId, SortedMap<StockKey, ? extends Number> quantities, Duration lockWait,
            Source source) {
        if (quantities.isEmpty()) {
            return List.of();
        }
        if (quantities.size() == 1) {
            StockKey key = quantities.firstKey();
            return jdbc.run(withLockWait(lockWait, move.one), (c, ps) -> {
                ps.setLong(1, quantities.get(key).longValue());
                ps.setString(2, tenantId);
                ps.setString(3, key.sku());
                ps.setString(4, key.location());
                if (move.ledger) {
                    source.bind(ps, 5);
                }
                return read(lastResult(ps));
            });
        }
        return jdbc.run(withLockWait(lockWait, move.sql), (c, ps) -> {
            List<String> skus = new ArrayList<>();
            List<String> locations = new ArrayList<>();
            List<Long> amounts = new ArrayList<>();
            for (Map.Entry<StockKey, ? extends Number> e : quantities.entrySet()) {
                skus.add(e.getKey().sku());
                locations.add(e.getKey().location());
                amounts.add(e.getValue().longValue());
            }
            ps.setArray(1, c.createArrayOf("varchar", skus.toArray()));
            ps.setArray(2, c.createArrayOf("varchar", locations.toArray()));
            ps.setArray(3, c.createArrayOf("bigint", amounts.toArray()));
            ps.setString(4, tenantId);
            ps.setString(5, tenantId);
            if (move.ledger) {
                source.bind(ps, 6);
            }
            return read(lastResult(ps));
        });
    }

    public Optional<StockRecord> find(String tenantId, StockKey key) {
        return one(FIND, tenantId, key);
    }

    public List<StockRecord> ofSku(String tenantId, String sku) {
        return jdbc.run(OF_SKU, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, sku);
            return list(ps);
        });
    }

    /** Locks the record for an admin write, creating it (on hand 0, version 0) and its location first if absent. */
    @Transactional(Transactional.TxType.MANDATORY)
    public StockRecord lockOrCreate(String tenantId, StockKey key) {
        execute(ENSURE_LOCATION, tenantId, key.location());
        execute(CREATE, key.sku(), tenantId, key.location());
        return one(LOCK, tenantId, key).orElseThrow();
    }

    /** Locks the record for an admin write, if it exists. */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StockRecord> lock(String tenantId, StockKey key) {
        return one(LOCK, tenantId, key);
    }

    /** A record locked for a count, with the time of the newest count applied to it (null: none yet). */
    public record Counted(StockRecord record, Instant countedAt) {
    }

    /**
     * Locks the records a count at one location covers, in sku order, creating the listed ones (on hand 0) and the
     * location first where absent.
     *
     * @param all whether every record of the location is covered (a full count), not only the listed skus
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Counted> lockForCount(String tenantId, String location, List<String> skus, boolean all) {
        execute(ENSURE_LOCATION, tenantId, location);
        return jdbc.withConnection(c -> {
            try (PreparedStatement create = c.prepareStatement(CREATE_MANY); PreparedStatement lock = c.prepareStatement(LOCK_COUNTED)) {
                create.setString(1, tenantId);
                create.setString(2, location);
                create.setArray(3, c.createArrayOf("varchar", skus.toArray()));
                create.executeUpdate();
                lock.setString(1, tenantId);
                lock.setString(2, location);
                lock.setBoolean(3, all);
                lock.setArray(4, c.createArrayOf("varchar", skus.toArray()));
                List<Counted> found = new ArrayList<>();
                try (ResultSet rs = lock.executeQuery()) {
                    while (rs.next()) {
                        Timestamp counted = rs.getTimestamp(10);
                        found.add(new Counted(record(rs), counted == null ? null : counted.toInstant()));
                    }
                }
                return found;
            }
        });
    }

    /**
     * What the ledger moved on hand by after {@code asOf}: the entries newest first, back to the first one at or before
     * it, so the cost is the entries since the count, not the record's history.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public long onHandMovedSince(String tenantId, StockKey key, Instant asOf) {
        return jdbc.run(NEWEST_FIRST, (c, ps) -> {
            ps.setFetchSize(64);
            ps.setString(1, tenantId);
            ps.setString(2, key.sku());
            ps.setString(3, key.location());
            long moved = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && rs.getTimestamp(2).toInstant().isAfter(asOf)) {
                    moved += rs.getLong(1);
                }
            }
            return moved;
        });
    }

    /**
     * Applies a count to a record the caller has locked: on hand becomes {@code onHand}, the record remembers
     * {@code asOf}, and a {@code snapshot} ledger entry records the drift. Empty when on hand would fall below held and
     * committed (nothing changes).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StockRecord> count(String tenantId, StockRecord before, long onHand, Instant asOf, Source source) {
        StockKey key = before.key();
        return first(SNAPSHOT, onHand, onHand, Timestamp.from(asOf), tenantId, key.sku(), key.location(), onHand,
                onHand - before.onHand(), source.reason(), source.reference(), source.actor(), uuid(source), source.idempotencyKey());
    }

    /** Remembers a count that changed nothing, on a record the caller has locked. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void counted(String tenantId, StockKey key, Instant asOf) {
        execute(COUNTED, Timestamp.from(asOf), tenantId, key.sku(), key.location());
    }

    /**
     * Sets on hand of a record the caller has locked (so {@code before} is current); empty when it would fall below held
     * and committed (nothing changes).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StockRecord> set(String tenantId, StockRecord before, long onHand, Source source) {
        StockKey key = before.key();
        return first(SET, onHand, onHand, tenantId, key.sku(), key.location(), onHand, onHand - before.onHand(), source.reason(),
                source.reference(), source.actor(), uuid(source), source.idempotencyKey());
    }

    /** Adds the delta to on hand; empty when on hand would fall below held and committed (nothing changes). */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<StockRecord> adjust(String tenantId, StockKey key, long delta, Source source) {
        return first(ADJUST, delta, delta, tenantId, key.sku(), key.location(), delta, delta, source.reason(), source.reference(),
                source.actor(), uuid(source), source.idempotencyKey());
    }

    private static String uuid(Source source) {
        return source.reservationId() == null ? null : source.reservationId().toString();
    }

    /**
     * Creates or changes a location; a default not given (null) keeps its value.
     *
     * @return the location as written
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Location putLocation(String tenantId, String location, int priority, Long safetyStock, Long lowStockThreshold) {
        return locationsOf(PUT_LOCATION, tenantId, location, priority, safetyStock, lowStockThreshold, safetyStock, lowStockThreshold)
                .get(0);
    }

    /** A record before and after a change of what it takes from its location. */
    public record Change(StockRecord before, StockRecord after) {
    }

    /**
     * Moves the records of a location that take its defaults to {@code location}'s values, locking them in sku order.
     *
     * @return the records that changed, before and after
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Change> takeDefaults(String tenantId, Location location) {
        return jdbc.run(TAKE_DEFAULTS, (c, ps) -> {
            Object[] args = { tenantId, location.location(), location.safetyStock(), location.lowStockThreshold(), tenantId,
                    location.location(), location.safetyStock(), location.lowStockThreshold() };
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            List<Change> changed = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StockRecord after = record(rs);
                    changed.add(new Change(new StockRecord(after.sku(), after.location(), after.onHand(), after.held(), after.committed(),
                            after.version(), after.updatedAt(), rs.getLong(10), rs.getLong(11)), after));
                }
            }
            return changed;
        });
    }

    /**
     * Gives a record the caller has locked its own safety stock and low-stock threshold, where not null (null keeps the
     * value).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public StockRecord limit(String tenantId, StockKey key, Long safetyStock, Long lowStockThreshold) {
        return first(OWN_LIMITS, safetyStock, lowStockThreshold, safetyStock, lowStockThreshold, tenantId, key.sku(), key.location())
                .orElseThrow();
    }

    /** The tenant's locations in allocation order; {@code default} always among them. */
    public List<Location> locations(String tenantId) {
        return locationsOf(LOCATIONS, tenantId, tenantId);
    }

    private List<Location> locationsOf(String sql, Object... args) {
        return jdbc.run(sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            List<Location> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Location(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getLong(4)));
                }
            }
            return found;
        });
    }

    /** One page of GET /v1/items: the rows of {@link StockQuery#sql()}, up to limit + 1. */
    public List<StockRecord> page(StockQuery query) {
        return jdbc.run(query.sql(), (c, ps) -> {
            List<Object> args = query.arguments();
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            return list(ps);
        });
    }

    /** One page of a record's movements, newest first: the rows of {@link MovementQuery#sql()}, up to limit + 1. */
    public List<Movement> movements(MovementQuery query) {
        return jdbc.run(query.sql(), (c, ps) -> {
            List<Object> args = query.arguments();
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            List<Movement> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String reservation = rs.getString(11);
                    rows.add(new Movement(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                            rs.getLong(7), rs.getString(8), rs.getString(9), rs.getString(10),
                            reservation == null ? null : java.util.UUID.fromString(reservation), rs.getString(12),
                            rs.getTimestamp(13).toInstant()));
                }
            }
            return rows;
        });
    }

    private Optional<StockRecord> one(String sql, String tenantId, StockKey key) {
        return first(sql, tenantId, key.sku(), key.location());
    }

    private Optional<StockRecord> first(String sql, Object... args) {
        return jdbc.run(sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            List<StockRecord> rows = list(ps);
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        });
    }

    private void execute(String sql, Object... args) {
        jdbc.run(sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            ps.executeUpdate();
            return null;
        });
    }

    /**
     * {@code SET LOCAL lock_timeout} ahead of the statement, sent with it in one round trip: a lock wait costs no round
     * trip of its own on the reservation path.
     */
    private static String withLockWait(Duration lockWait, String sql) {
        return lockWait == null ? sql : LockWait.statement(lockWait) + "; " + sql;
    }

    /** Executes a statement that may be preceded by SETs and returns the result set of the last one. */
    private static ResultSet lastResult(PreparedStatement ps) throws SQLException {
        boolean isResultSet = ps.execute();
        while (!isResultSet && ps.getUpdateCount() != -1) {
            isResultSet = ps.getMoreResults();
        }
        return ps.getResultSet();
    }

    private static List<StockRecord> list(PreparedStatement ps) throws SQLException {
        return read(ps.executeQuery());
    }

    private static List<StockRecord> read(ResultSet results) throws SQLException {
        List<StockRecord> rows = new ArrayList<>();
        try (ResultSet rs = results) {
            while (rs.next()) {
                rows.add(record(rs));
            }
        }
        return rows;
    }

    /** A row that starts with {@link #COLUMNS}. */
    private static StockRecord record(ResultSet rs) throws SQLException {
        return new StockRecord(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                rs.getTimestamp(7).toInstant(), rs.getLong(8), rs.getLong(9));
    }

    /** A row of sku, location and available. */
    private static Candidate candidate(ResultSet rs) throws SQLException {
        return new Candidate(new StockKey(rs.getString(1), rs.getString(2)), rs.getLong(3));
    }
}
