package dev.stockhold.inventory;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.agroal.api.AgroalDataSource;

/**
 * The SQL that moves stock. Rows are always touched in sku order (callers pass a {@link SortedMap}) so two
 * transactions over the same skus lock them in the same order and cannot deadlock.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class StockLedger {

    // I1: the conditional decrement; a line that would go below zero updates nothing.
    private static final String DECREMENT = """
            UPDATE stock_items SET available = available - ?
             WHERE tenant_id = ? AND sku = ? AND available >= ?
            """;
    private static final String RELEASE = """
            UPDATE stock_items SET available = available + ? WHERE tenant_id = ? AND sku = ?
            """;
    // total moves by exactly what the admin adds or removes, so available + held + confirmed = total (I2) stays auditable
    private static final String SET = """
            INSERT INTO stock_items AS s (tenant_id, sku, available, total) VALUES (?, ?, ?, ?)
            ON CONFLICT (tenant_id, sku) DO UPDATE
               SET total = coalesce(s.total, s.available + (
                       SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                        WHERE r.tenant_id = s.tenant_id AND l.sku = s.sku AND r.status IN ('HELD', 'CONFIRMED')))
                       + EXCLUDED.available - s.available,
                   available = EXCLUDED.available
            """;

    private final AgroalDataSource dataSource;

    StockLedger(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Decrements every line in one round trip, in sku order.
     *
     * @return the skus that could not be decremented (short or unknown); empty means every line succeeded
     */
    public List<String> decrement(String tenantId, SortedMap<String, Integer> quantities) {
        int[] counts = batch(DECREMENT, tenantId, quantities, true);
        List<String> failed = new ArrayList<>();
        int i = 0;
        for (String sku : quantities.keySet()) {
            if (counts[i++] != 1) {
                failed.add(sku);
            }
        }
        return failed;
    }

    /** Returns held quantities to stock, in sku order. */
    public void release(String tenantId, SortedMap<String, Integer> quantities) {
        if (!quantities.isEmpty()) {
            batch(RELEASE, tenantId, quantities, false);
        }
    }

    /** Sets the free-to-reserve quantity, creating the item if absent. */
    public void set(String tenantId, String sku, long available) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(SET)) {
            ps.setString(1, tenantId);
            ps.setString(2, sku);
            ps.setLong(3, available);
            ps.setLong(4, available);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Which of these skus exist for the tenant. */
    public Set<String> existing(String tenantId, Iterable<String> skus) {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT sku FROM stock_items WHERE tenant_id = ? AND sku = ANY (?)")) {
            List<String> list = new ArrayList<>();
            skus.forEach(list::add);
            Array array = c.createArrayOf("varchar", list.toArray());
            ps.setString(1, tenantId);
            ps.setArray(2, array);
            Set<String> found = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private int[] batch(String sql, String tenantId, SortedMap<String, Integer> quantities, boolean conditional) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (Map.Entry<String, Integer> line : quantities.entrySet()) {
                ps.setLong(1, line.getValue());
                ps.setString(2, tenantId);
                ps.setString(3, line.getKey());
                if (conditional) {
                    ps.setLong(4, line.getValue());
                }
                ps.addBatch();
            }
            return ps.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
