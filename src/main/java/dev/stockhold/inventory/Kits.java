package dev.stockhold.inventory;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.ValidationFailedException;

/** Every statement on kits: skus sold as sets of other skus. */
@ApplicationScoped
public class Kits {

    private static final String COLUMNS = "sku, component_skus, component_quantities, version";
    private static final String OF = "SELECT " + COLUMNS + " FROM kits WHERE tenant_id = ? AND sku = ANY (?::varchar[]) ORDER BY sku";
    private static final String ALL = "SELECT " + COLUMNS + " FROM kits WHERE tenant_id = ? ORDER BY sku";
    private static final String PUT = """
            INSERT INTO kits AS k (tenant_id, sku, component_skus, component_quantities) VALUES (?, ?, ?::varchar[], ?::integer[])
            ON CONFLICT (tenant_id, sku) DO UPDATE SET component_skus = EXCLUDED.component_skus,
                   component_quantities = EXCLUDED.component_quantities, version = k.version + 1, updated_at = now()
            RETURNING\s""" + COLUMNS;
    private static final String REPLACE = """
            UPDATE kits SET component_skus = ?::varchar[], component_quantities = ?::integer[], version = version + 1, updated_at = now()
             WHERE tenant_id = ? AND sku = ? AND (? OR version = ANY (?::bigint[]))
            RETURNING\s""" + COLUMNS;
    // a kit has no stock of its own (and a kit is no component: kits do not nest)
    private static final String STOCKED = "SELECT count(*) FROM stock_records WHERE tenant_id = ? AND sku = ?";

    @Inject
    Jdbc jdbc;

    /** The kits among these skus, by sku (none: empty). */
    public Map<String, Kit> of(String tenantId, Collection<String> skus) {
        Map<String, Kit> found = new LinkedHashMap<>();
        query(Jdbc.Mode.READ, OF, tenantId, skus.toArray(String[]::new)).forEach(k -> found.put(k.sku(), k));
        return found;
    }

    public List<Kit> all(String tenantId) {
        return query(Jdbc.Mode.READ, ALL, tenantId);
    }

    /** Creates or replaces a kit; with If-Match, only at a version it names (412 otherwise, and for a kit that does not exist). */
    @Transactional
    public Kit put(String tenantId, String sku, KitRequest request, IfMatch precondition) {
        long stocked = jdbc.run(Jdbc.Mode.READ, STOCKED, (c, ps) -> {
            ps.setString(1, tenantId);
            ps.setString(2, sku);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
        if (stocked > 0) {
            throw new ValidationFailedException("sku", "has stock of its own: a kit's stock is its components'");
        }
        List<String> components = request.components().stream().map(KitRequest.Component::sku).toList();
        Map<String, Kit> nested = of(tenantId, components);
        if (!nested.isEmpty()) {
            String kit = nested.keySet().iterator().next();
            throw new ValidationFailedException("components[" + components.indexOf(kit) + "].sku", "is a kit: kits do not nest");
        }
        String[] skus = components.toArray(String[]::new);
        Integer[] quantities = request.components().stream().map(KitRequest.Component::quantity).toArray(Integer[]::new);
        if (precondition == null) {
            return query(Jdbc.Mode.JOIN, PUT, tenantId, sku, skus, quantities).get(0);
        }
        Long[] versions = precondition.versions();
        List<Kit> written = query(Jdbc.Mode.JOIN, REPLACE, skus, quantities, tenantId, sku, precondition.any(), versions);
        if (written.isEmpty()) {
            Map<String, Kit> current = of(tenantId, List.of(sku));
            throw new ProblemException(ProblemType.PRECONDITION_FAILED, "If-Match does not match the current version of kit '" + sku + "'"
                    + (current.isEmpty() ? " (it does not exist)" : " (now " + current.get(sku).etag() + ")") + "; nothing was changed");
        }
        return written.get(0);
    }

    private List<Kit> query(Jdbc.Mode mode, String sql, Object... args) {
        return jdbc.run(mode, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                Object arg = args[i];
                if (arg instanceof String[] strings) {
                    ps.setArray(i + 1, c.createArrayOf("varchar", strings));
                } else if (arg instanceof Integer[] ints) {
                    ps.setArray(i + 1, c.createArrayOf("integer", ints));
                } else if (arg instanceof Long[] longs) {
                    ps.setArray(i + 1, c.createArrayOf("bigint", longs));
                } else {
                    ps.setObject(i + 1, arg);
                }
            }
            List<Kit> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(row(rs));
                }
            }
            return found;
        });
    }

    private static Kit row(ResultSet rs) throws SQLException {
        Array skuArray = rs.getArray(2);
        Array quantityArray = rs.getArray(3);
        String[] skus = (String[]) skuArray.getArray();
        Integer[] quantities = (Integer[]) quantityArray.getArray();
        List<Kit.Component> components = new ArrayList<>();
        for (int i = 0; i < skus.length; i++) {
            components.add(new Kit.Component(skus[i], quantities[i]));
        }
        return new Kit(rs.getString(1), components, rs.getLong(4));
    }

    /** The refusal of a stock write to a kit: a kit has no stock of its own (400 validation-failed naming the sku). */
    static dev.stockhold.web.ValidationFailedException haveNoStock(String sku) {
        return new dev.stockhold.web.ValidationFailedException("sku",
                sku + " is a kit: a kit has no stock of its own; write the stock of its components");
    }
}
