package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;

/** The allocation reads: the records that may serve a request's skus, in allocation order, with their reservable. */
@ApplicationScoped
class Candidates {

    private static final String UNLOCKED = """
            SELECT s.sku, s.location, greatest(%s, 0) AS available FROM stock_records s
              LEFT JOIN locations l ON l.tenant_id = s.tenant_id AND l.location = s.location
             WHERE s.tenant_id = ? AND s.sku = ANY (?)
             ORDER BY coalesce(l.priority, 100), s.location
            """.formatted(Reservable.SQL);
    /** The allocation read of a one-sku request. */
    private static final String OF_ONE = UNLOCKED.replace("s.sku = ANY (?)", "s.sku = ?");
    // The MATERIALIZED select locks the records in (sku, location) order, as every multi-record move does, and reads
    // them as they are once locked; the outer query puts them in allocation order.
    private static final String LOCKED = """
            WITH locked AS MATERIALIZED (
                SELECT s.sku, s.location, greatest(%s, 0) AS available
                  FROM stock_records s
                 WHERE s.tenant_id = ? AND s.sku = ANY (?) ORDER BY s.sku, s.location FOR UPDATE OF s)
            SELECT k.sku, k.location, k.available FROM locked k
              LEFT JOIN locations l ON l.tenant_id = ? AND l.location = k.location
             ORDER BY coalesce(l.priority, 100), k.location
            """.formatted(Reservable.SQL);

    @Inject
    Jdbc jdbc;

    /**
     * The records of these skus, in allocation order: location priority (100 unless set), then name.
     *
     * @param lockWait how long this transaction's later statements may wait for a lock; set in the same round trip
     */
    List<Candidate> read(String tenantId, Collection<String> skus, Duration lockWait) {
        boolean one = skus.size() == 1;
        return jdbc.run(Jdbc.Mode.READ, StockRecords.withLockWait(lockWait, one ? OF_ONE : UNLOCKED), (c, ps) -> {
            ps.setString(1, tenantId);
            if (one) {
                ps.setString(2, skus.iterator().next());
            } else {
                ps.setArray(2, c.createArrayOf("varchar", skus.toArray()));
            }
            return rows(StockRecords.lastResult(ps));
        });
    }

    /** The same, locked until the caller's transaction ends: what they have cannot change before the caller's holds. */
    List<Candidate> lock(String tenantId, Collection<String> skus) {
        return jdbc.run(Jdbc.Mode.JOIN, LOCKED, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setArray(2, c.createArrayOf("varchar", skus.toArray()));
            ps.setString(3, tenantId);
            return rows(ps.executeQuery());
        });
    }

    private static List<Candidate> rows(ResultSet results) throws SQLException {
        List<Candidate> found = new ArrayList<>();
        try (ResultSet rs = results) {
            while (rs.next()) {
                found.add(new Candidate(new StockKey(rs.getString("sku"), rs.getString("location")), rs.getLong("available")));
            }
        }
        return found;
    }
}
