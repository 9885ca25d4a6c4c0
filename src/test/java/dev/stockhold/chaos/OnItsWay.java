package dev.stockhold.chaos;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stock on its way after a run, read from the rows of one tenant (part of {@link Snapshot}): each record's incoming, what
 * the open purchase orders still expect per record, every supply (purchase orders and transfers with an expected date),
 * the promises of backordered lines, and what each reservation says it awaits. Subjects are sku@location.
 */
record OnItsWay(Map<String, Long> incoming, Map<String, Long> openOrders, Map<String, Supply> supplies, List<Promise> promises,
        Map<String, Long> awaiting) {

    /** The nil supply id of a promise that waits for no supply (unpromised units). */
    static final String NO_SUPPLY = "00000000-0000-0000-0000-000000000000";

    static final OnItsWay NONE = new OnItsWay(Map.of(), Map.of(), Map.of(), List.of(), Map.of());

    /** A purchase order or a transfer: what it brings to {@code subject}, expected when; {@code open} while units may come. */
    record Supply(String id, String subject, Instant expectedAt, long quantity, long arrived, boolean open) {

        /** The units it may still bring. */
        long remaining() {
            return open ? quantity - arrived : 0;
        }
    }

    /** Units of a reservation's line waiting for one supply ({@link #NO_SUPPLY}: unpromised). */
    record Promise(String reservation, String subject, String supply, long quantity) {
    }

    static OnItsWay read(Connection c, String tenant) throws SQLException {
        Map<String, Long> incoming = new TreeMap<>();
        Snapshot.query(c, "SELECT sku || '@' || location, incoming FROM stock_records WHERE tenant_id = ? AND incoming <> 0", tenant,
                rs -> incoming.put(rs.getString(1), rs.getLong(2)));
        Map<String, Long> openOrders = new TreeMap<>();
        Map<String, Supply> supplies = new TreeMap<>();
        Snapshot.query(c, """
                SELECT id::text, sku || '@' || location, expected_at, quantity, received, status = 'OPEN' FROM purchase_orders
                 WHERE tenant_id = ?""", tenant, rs -> {
            Supply s = new Supply(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant(), rs.getLong(4), rs.getLong(5),
                    rs.getBoolean(6));
            supplies.put(s.id(), s);
            if (s.open()) {
                openOrders.merge(s.subject(), s.remaining(), Long::sum);
            }
        });
        Snapshot.query(c, """
                SELECT id::text, sku || '@' || to_location, expected_at, quantity, received + returned, status = 'IN_TRANSIT'
                  FROM transfers WHERE tenant_id = ? AND expected_at IS NOT NULL""", tenant,
                rs -> supplies.put(rs.getString(1), new Supply(rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant(),
                        rs.getLong(4), rs.getLong(5), rs.getBoolean(6))));
        List<Promise> promises = new ArrayList<>();
        Snapshot.query(c,
                "SELECT reservation_id::text, sku || '@' || location, supply_id::text, quantity FROM promises WHERE tenant_id = ?",
                tenant, rs -> promises.add(new Promise(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4))));
        Map<String, Long> awaiting = new TreeMap<>();
        Snapshot.query(c, "SELECT id::text, awaiting FROM reservations WHERE tenant_id = ? AND awaiting <> 0", tenant,
                rs -> awaiting.put(rs.getString(1), rs.getLong(2)));
        return new OnItsWay(incoming, openOrders, supplies, promises, awaiting);
    }
}
