package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;

/** Every statement on locations: a tenant's places of stock, their allocation priority and the defaults records take. */
@ApplicationScoped
class LocationRepository {

    private static final String ENSURE = "INSERT INTO locations (tenant_id, location) VALUES (?, ?) ON CONFLICT DO NOTHING";
    // Defaults not given (NULL) keep their value.
    private static final String PUT = """
            INSERT INTO locations AS l (tenant_id, location, priority, safety_stock, low_stock_threshold)
            VALUES (?, ?, ?, coalesce(?::bigint, 0), coalesce(?::bigint, 0))
            ON CONFLICT (tenant_id, location) DO UPDATE SET priority = EXCLUDED.priority,
                   safety_stock = coalesce(?::bigint, l.safety_stock), low_stock_threshold = coalesce(?::bigint, l.low_stock_threshold), updated_at = now()
            RETURNING location, priority, safety_stock, low_stock_threshold
            """;
    private static final String ALL = """
            SELECT location, priority, safety_stock, low_stock_threshold FROM (
                SELECT location, priority, safety_stock, low_stock_threshold FROM locations WHERE tenant_id = ?
                UNION ALL
                SELECT 'default', 100, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM locations WHERE tenant_id = ? AND location = 'default')) l
             ORDER BY priority, location
            """;

    @Inject
    Jdbc jdbc;

    /** Creates the location with its defaults if absent, so a record can be created at it. */
    @Transactional(Transactional.TxType.MANDATORY)
    void ensure(String tenantId, String location) {
        jdbc.run(Jdbc.Mode.JOIN, ENSURE, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, location);
            return ps.executeUpdate();
        });
    }

    /**
     * Creates or changes a location; a default not given (null) keeps its value.
     *
     * @return the location as written
     */
    @Transactional(Transactional.TxType.MANDATORY)
    Location put(String tenantId, String location, int priority, Long safetyStock, Long lowStockThreshold) {
        return query(Jdbc.Mode.JOIN, PUT, tenantId, location, priority, safetyStock, lowStockThreshold, safetyStock, lowStockThreshold)
                .get(0);
    }

    /** The tenant's locations in allocation order; {@code default} always among them. */
    List<Location> all(String tenantId) {
        return query(Jdbc.Mode.READ, ALL, tenantId, tenantId);
    }

    private List<Location> query(Jdbc.Mode mode, String sql, Object... args) {
        return jdbc.run(mode, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            List<Location> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Location(rs.getString("location"), rs.getInt("priority"), rs.getLong("safety_stock"),
                            rs.getLong("low_stock_threshold")));
                }
            }
            return found;
        });
    }
}
