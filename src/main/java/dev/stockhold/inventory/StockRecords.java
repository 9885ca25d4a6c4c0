package dev.stockhold.inventory;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
 * Every statement on stock_records. Multi-record moves lock their records in {@link StockKey} order in one statement, so
 * carts over the same records cannot deadlock. The admin writes may only join a transaction; the reservation path's
 * statements run in its caller's transaction without an interceptor of their own (they are on every request's path).
 * Rows are read by column name ({@link StockRow}); the admin writes' statements are {@link AdminStatements}.
 */
@ApplicationScoped
class StockRecords {

    private static final String FIND = "SELECT " + StockRow.COLUMNS
            + " FROM stock_records s WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ?";
    private static final String LOCK = FIND + " FOR UPDATE";
    private static final String OF_SKU = "SELECT " + StockRow.COLUMNS
            + " FROM stock_records s WHERE s.tenant_id = ? AND s.sku = ? ORDER BY s.location";

    @Inject
    Jdbc jdbc;

    /**
     * Moves every record by its quantity in one statement and round trip, locking them in {@link StockKey} order.
     *
     * @param lockWait how long to wait for a record another transaction holds (set in the same round trip); null: as is
     * @param source what a ledger entry records; only read by moves that write one
     * @return the records as moved; a record missing from the answer did not meet the move's condition
     */
    List<StockRecord> move(Move move, String tenantId, SortedMap<StockKey, ? extends Number> quantities, Duration lockWait, Source source) {
        if (quantities.isEmpty()) {
            return List.of();
        }
        if (quantities.size() == 1) {
            StockKey key = quantities.firstKey();
            return jdbc.run(Jdbc.Mode.JOIN, withLockWait(lockWait, move.one), (c, ps) -> {
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
        return jdbc.run(Jdbc.Mode.JOIN, withLockWait(lockWait, move.many), (c, ps) -> {
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

    Optional<StockRecord> find(String tenantId, StockKey key) {
        return first(Jdbc.Mode.READ, FIND, tenantId, key.sku(), key.location());
    }

    List<StockRecord> ofSku(String tenantId, String sku) {
        return jdbc.run(Jdbc.Mode.READ, OF_SKU, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, sku);
            return read(ps.executeQuery());
        });
    }

    /** Locks the record for an admin write, creating it (on hand 0, version 0) first if absent; its location must exist. */
    @Transactional(Transactional.TxType.MANDATORY)
    StockRecord lockOrCreate(String tenantId, StockKey key) {
        execute(AdminStatements.CREATE, key.sku(), tenantId, key.location(), key.sku());
        return lock(tenantId, key).orElseThrow(() -> Kits.haveNoStock(key.sku()));
    }

    /** Locks the record for an admin write, if it exists. */
    @Transactional(Transactional.TxType.MANDATORY)
    Optional<StockRecord> lock(String tenantId, StockKey key) {
        return first(Jdbc.Mode.JOIN, LOCK, tenantId, key.sku(), key.location());
    }

    /** A record locked for a count, with the time of the newest count applied to it (null: none yet). */
    record Counted(StockRecord record, Instant countedAt) {
    }

    /**
     * Locks the records a count at one location covers, in sku order, creating the listed ones (on hand 0) first where
     * absent (never a kit's: a listed kit is refused); the location must exist.
     *
     * @param all whether every record of the location is covered (a full count), not only the listed skus
     */
    @Transactional(Transactional.TxType.MANDATORY)
    List<Counted> lockForCount(String tenantId, String location, List<String> skus, boolean all) {
        return jdbc.withConnection(Jdbc.Mode.JOIN, c -> {
            try (PreparedStatement create = c.prepareStatement(AdminStatements.CREATE_MANY);
                    PreparedStatement lock = c.prepareStatement(AdminStatements.LOCK_COUNTED)) {
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
                        Timestamp counted = rs.getTimestamp("counted_at");
                        found.add(new Counted(StockRow.read(rs).toRecord(), counted == null ? null : counted.toInstant()));
                    }
                }
                // a listed sku without a record after the create is a kit, which has no stock of its own
                java.util.Set<String> locked = new java.util.HashSet<>();
                found.forEach(f -> locked.add(f.record().sku()));
                skus.stream().filter(sku -> !locked.contains(sku)).findFirst().ifPresent(sku -> {
                    throw Kits.haveNoStock(sku);
                });
                return found;
            }
        });
    }

    /**
     * Applies a count to a record the caller has locked: on hand becomes {@code onHand}, the record remembers
     * {@code asOf}, and a {@code snapshot} ledger entry records the drift. Empty when on hand would fall below held and
     * committed (nothing changes).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    Optional<StockRecord> count(String tenantId, StockRecord before, long onHand, Instant asOf, Source source) {
        StockKey key = before.key();
        return first(Jdbc.Mode.JOIN, AdminStatements.SNAPSHOT, onHand, onHand, Timestamp.from(asOf), tenantId, key.sku(), key.location(),
                onHand,
                onHand - before.onHand(), source.reason(), source.reference(), source.actor(), uuid(source), source.idempotencyKey());
    }

    /** Remembers a count that changed nothing, on a record the caller has locked. */
    @Transactional(Transactional.TxType.MANDATORY)
    void counted(String tenantId, StockKey key, Instant asOf) {
        execute(AdminStatements.COUNTED, Timestamp.from(asOf), tenantId, key.sku(), key.location());
    }

    /** Sets on hand of a record the caller has locked; empty when it would fall below held and committed. */
    @Transactional(Transactional.TxType.MANDATORY)
    Optional<StockRecord> set(String tenantId, StockRecord before, long onHand, Source source) {
        StockKey key = before.key();
        return first(Jdbc.Mode.JOIN, AdminStatements.SET, onHand, onHand, tenantId, key.sku(), key.location(), onHand,
                onHand - before.onHand(),
                source.reason(), source.reference(), source.actor(), uuid(source), source.idempotencyKey());
    }

    /** Adds the delta to on hand; empty when on hand would fall below held and committed (nothing changes). */
    @Transactional(Transactional.TxType.MANDATORY)
    Optional<StockRecord> adjust(String tenantId, StockKey key, long delta, Source source) {
        return first(Jdbc.Mode.JOIN, AdminStatements.ADJUST, delta, delta, tenantId, key.sku(), key.location(), delta, delta,
                source.reason(),
                source.reference(), source.actor(), uuid(source), source.idempotencyKey());
    }

    /** A record before and after a change of what it takes from its location. */
    record Change(StockRecord before, StockRecord after) {
    }

    /** Moves the records of a location that take its defaults to {@code location}'s values, locking them in sku order. */
    @Transactional(Transactional.TxType.MANDATORY)
    List<Change> takeDefaults(String tenantId, Location location) {
        return jdbc.run(Jdbc.Mode.JOIN, AdminStatements.TAKE_DEFAULTS, (c, ps) -> {
            Object[] args = { tenantId, location.location(), location.safetyStock(), location.lowStockThreshold(), tenantId,
                    location.location(), location.safetyStock(), location.lowStockThreshold() };
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            List<Change> changed = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StockRow after = StockRow.read(rs);
                    StockRow before = after.withLimits(rs.getLong("safety_stock_before"), rs.getLong("low_stock_threshold_before"));
                    changed.add(new Change(before.toRecord(), after.toRecord()));
                }
            }
            return changed;
        });
    }

    /** Gives a record the caller has locked its own safety stock and low-stock threshold, where not null (null keeps it). */
    @Transactional(Transactional.TxType.MANDATORY)
    StockRecord limit(String tenantId, StockKey key, Long safetyStock, Long lowStockThreshold) {
        return first(Jdbc.Mode.JOIN, AdminStatements.OWN_LIMITS, safetyStock, lowStockThreshold, safetyStock, lowStockThreshold, tenantId,
                key.sku(),
                key.location()).orElseThrow();
    }

    /** One page of GET /v1/items: the rows of {@link StockQuery#sql()}, up to limit + 1. */
    List<StockRecord> page(StockQuery query) {
        return jdbc.run(Jdbc.Mode.READ, query.sql(), (c, ps) -> {
            List<Object> args = query.arguments();
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            return read(ps.executeQuery());
        });
    }

    private static String uuid(Source source) {
        return source.reservationId() == null ? null : source.reservationId().toString();
    }

    private Optional<StockRecord> first(Jdbc.Mode mode, String sql, Object... args) {
        return jdbc.run(mode, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            List<StockRecord> rows = read(ps.executeQuery());
            return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
        });
    }

    private void execute(String sql, Object... args) {
        jdbc.run(Jdbc.Mode.JOIN, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            return ps.executeUpdate();
        });
    }

    /** {@code SET LOCAL lock_timeout} ahead of the statement, in one round trip: a lock wait costs no round trip of its own. */
    static String withLockWait(Duration lockWait, String sql) {
        return lockWait == null ? sql : LockWait.statement(lockWait) + "; " + sql;
    }

    /** Executes a statement that may be preceded by SETs and returns the result set of the last one. */
    static ResultSet lastResult(PreparedStatement ps) throws SQLException {
        boolean isResultSet = ps.execute();
        while (!isResultSet && ps.getUpdateCount() != -1) {
            isResultSet = ps.getMoreResults();
        }
        return ps.getResultSet();
    }

    private static List<StockRecord> read(ResultSet results) throws SQLException {
        List<StockRecord> rows = new ArrayList<>();
        try (ResultSet rs = results) {
            while (rs.next()) {
                rows.add(StockRow.read(rs).toRecord());
            }
        }
        return rows;
    }
}
