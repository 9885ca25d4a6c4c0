package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;

/**
 * Available to promise by date for a sku: reservable now, then what open supply (purchase orders, transfers in transit
 * with an expected date) adds by each expected date, less what backorders were already promised from it.
 */
@ApplicationScoped
public class SupplyDates {

    private static final String OPEN_BY_DATE = """
            SELECT s.expected_at, sum(s.open) FROM (
                SELECT o.location, o.expected_at, o.quantity - o.received
                       - coalesce((SELECT sum(p.quantity) FROM promises p WHERE p.tenant_id = o.tenant_id AND p.supply_id = o.id), 0) AS open
                  FROM purchase_orders o WHERE o.tenant_id = ? AND o.sku = ? AND o.status = 'OPEN'
                UNION ALL
                SELECT t.to_location, t.expected_at, t.quantity - t.received - t.returned
                       - coalesce((SELECT sum(p.quantity) FROM promises p WHERE p.tenant_id = t.tenant_id AND p.supply_id = t.id), 0)
                  FROM transfers t WHERE t.tenant_id = ? AND t.sku = ? AND t.status = 'IN_TRANSIT' AND t.expected_at IS NOT NULL) s
             WHERE s.open > 0 AND (? OR s.location = ANY (?::varchar[]))
             GROUP BY s.expected_at ORDER BY s.expected_at
            """;

    @Inject
    Jdbc jdbc;

    /** Cumulative: {@code now} first, then by each expected date; only supply at these locations (null: any). */
    public List<Promisable> of(String tenantId, String sku, long now, List<String> locations) {
        return jdbc.run(Jdbc.Mode.READ, OPEN_BY_DATE, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, sku);
            ps.setString(3, tenantId);
            ps.setString(4, sku);
            ps.setBoolean(5, locations == null);
            ps.setArray(6, c.createArrayOf("varchar", locations == null ? new String[0] : locations.toArray()));
            List<Promisable> dates = new ArrayList<>(List.of(new Promisable(null, now)));
            long total = now;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    total += rs.getLong(2);
                    dates.add(new Promisable(rs.getTimestamp(1).toInstant(), total));
                }
            }
            return dates;
        });
    }
}
