package dev.stockhold.supply;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;
import dev.stockhold.inventory.StockKey;

/** Every statement on purchase_orders. */
@ApplicationScoped
class PurchaseOrderRepository {

    private static final String COLUMNS = "id, sku, location, quantity, received, status, reference, expected_at, created_at, updated_at, "
            + "version";
    private static final String INSERT = "INSERT INTO purchase_orders (tenant_id, id, sku, location, quantity, status, reference, "
            + "expected_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'OPEN', ?, ?, ?, ?) RETURNING " + COLUMNS;
    private static final String FIND = "SELECT " + COLUMNS + " FROM purchase_orders WHERE tenant_id = ? AND id = ?";
    private static final String LOCK = FIND + " FOR UPDATE";
    // the status follows from the units and the close (the table's check holds it to them)
    private static final String ACCOUNT = """
            UPDATE purchase_orders SET received = received + ?, version = version + 1, updated_at = ?,
                   status = CASE WHEN received + ? = quantity THEN 'RECEIVED' WHEN ? THEN 'CLOSED' ELSE 'OPEN' END
             WHERE tenant_id = ? AND id = ? RETURNING\s""" + COLUMNS;

    @Inject
    Jdbc jdbc;

    PurchaseOrder insert(String tenantId, UUID id, StockKey at, IncomingRequest request, Instant now) {
        return one(Jdbc.Mode.JOIN, INSERT, tenantId, id, at.sku(), at.location(), request.quantity(), request.reference(),
                Timestamp.from(request.expected()), Timestamp.from(now), Timestamp.from(now)).orElseThrow();
    }

    Optional<PurchaseOrder> find(String tenantId, UUID id) {
        return one(Jdbc.Mode.READ, FIND, tenantId, id);
    }

    /** Locks the order until the caller's transaction ends: its receipts and its close apply one at a time. */
    Optional<PurchaseOrder> lock(String tenantId, UUID id) {
        return one(Jdbc.Mode.JOIN, LOCK, tenantId, id);
    }

    /** Counts units received on an order the caller has locked; {@code close}: no more will come. */
    PurchaseOrder account(String tenantId, UUID id, long received, boolean close, Instant now) {
        return one(Jdbc.Mode.JOIN, ACCOUNT, received, Timestamp.from(now), received, close, tenantId, id).orElseThrow();
    }

    private Optional<PurchaseOrder> one(Jdbc.Mode mode, String sql, Object... args) {
        return jdbc.run(mode, sql, (c, ps) -> {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        });
    }

    private static PurchaseOrder read(ResultSet rs) throws SQLException {
        long quantity = rs.getLong("quantity");
        long received = rs.getLong("received");
        String status = rs.getString("status");
        return new PurchaseOrder(rs.getObject("id", UUID.class), rs.getString("sku"), rs.getString("location"), quantity, received,
                PurchaseOrder.OPEN.equals(status) ? quantity - received : 0, status, rs.getTimestamp("expected_at").toInstant(),
                rs.getString("reference"), rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                rs.getLong("version"));
    }
}
