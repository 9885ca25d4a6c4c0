package dev.stockhold.inventory;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import dev.stockhold.Jdbc;

/**
 * The movement ledger, stock_movements: every change of on hand or committed is one entry, written by the same
 * statement as the change ({@link #wrap}), and read back here by page or since a count.
 */
@ApplicationScoped
class MovementLedger {

    private static final String NEWEST_FIRST = """
            SELECT on_hand_delta, created_at FROM stock_movements WHERE tenant_id = ? AND sku = ? AND location = ? ORDER BY seq DESC""";

    /** The columns of an entry as {@link #read} reads them: a page's select ({@link MovementQuery#sql()}) names them. */
    static final String COLUMNS = "seq, kind, on_hand_delta, committed_delta, on_hand_after, committed_after, version, reason, reference, "
            + "actor, reservation_id, idempotency_key, created_at, in_transit_delta, transfer_id, purchase_order_id";

    @Inject
    Jdbc jdbc;

    /** The columns a change's UPDATE returns besides {@link StockRow#COLUMNS}, for its entry. */
    static String returning(String onHandDelta, String committedDelta) {
        return returning(onHandDelta, committedDelta, "0", "NULL");
    }

    /** The same for a change of in transit by a transfer, whose entry names the transfer. */
    static String returning(String onHandDelta, String committedDelta, String inTransitDelta, String transferId) {
        return returning(onHandDelta, committedDelta, inTransitDelta, transferId, "NULL");
    }

    /** The same for a purchase order's receipt, whose entry names the order. */
    static String returning(String onHandDelta, String committedDelta, String inTransitDelta, String transferId, String purchaseOrderId) {
        return "s.tenant_id, s.movements, (" + onHandDelta + ")::bigint AS on_hand_delta, (" + committedDelta
                + ")::bigint AS committed_delta, (" + inTransitDelta + ")::bigint AS in_transit_delta, (" + transferId
                + ")::uuid AS transfer_id, (" + purchaseOrderId + ")::uuid AS purchase_order_id";
    }

    /**
     * The ledger's half of a statement that changes on hand or committed: the change's UPDATE becomes the CTE
     * {@code moved}, whose rows the same statement writes to stock_movements (one entry each, seq = the record's new
     * {@code movements}), and the statement answers the records as before. One round trip, and the entry commits exactly
     * when the change does. The entry's five parameters ({@link Source#bind}) follow the change's.
     */
    static String wrap(String lead, String update, String kind) {
        return lead + "moved AS (\n" + update + "),\n" + """
                entry AS (
                    INSERT INTO stock_movements (tenant_id, sku, location, seq, kind, on_hand_delta, committed_delta, on_hand_after,
                                                 committed_after, version, reason, reference, actor, reservation_id, idempotency_key,
                                                 in_transit_delta, transfer_id, purchase_order_id)
                    SELECT tenant_id, sku, location, movements, '%s', on_hand_delta, committed_delta, on_hand, committed, version,
                           ?, ?, ?, ?::uuid, ?, in_transit_delta, transfer_id, purchase_order_id FROM moved)
                SELECT %s FROM moved""".formatted(kind, StockRow.NAMES);
    }

    /** One page of a record's movements, newest first: the rows of {@link MovementQuery#sql()}, up to limit + 1. */
    List<Movement> page(MovementQuery query) {
        return jdbc.run(Jdbc.Mode.READ, query.sql(), (c, ps) -> {
            List<Object> args = query.arguments();
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            List<Movement> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(read(rs));
                }
            }
            return rows;
        });
    }

    /** One entry, by column name. */
    private static Movement read(ResultSet rs) throws SQLException {
        String reservation = rs.getString("reservation_id");
        String transfer = rs.getString("transfer_id");
        String purchaseOrder = rs.getString("purchase_order_id");
        return new Movement(rs.getLong("seq"), rs.getString("kind"), rs.getLong("on_hand_delta"), rs.getLong("committed_delta"),
                rs.getLong("on_hand_after"), rs.getLong("committed_after"), rs.getLong("version"), rs.getString("reason"),
                rs.getString("reference"), rs.getString("actor"), reservation == null ? null : UUID.fromString(reservation),
                rs.getString("idempotency_key"), rs.getTimestamp("created_at").toInstant(), rs.getLong("in_transit_delta"),
                transfer == null ? null : UUID.fromString(transfer), purchaseOrder == null ? null : UUID.fromString(purchaseOrder));
    }

    /**
     * What the ledger moved on hand by after {@code asOf}: the entries newest first, back to the first one at or before
     * it, so the cost is the entries since the count, not the record's history.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    long onHandMovedSince(String tenantId, StockKey key, Instant asOf) {
        return jdbc.run(Jdbc.Mode.READ, NEWEST_FIRST, (c, ps) -> {
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
}
