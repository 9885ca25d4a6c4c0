package dev.stockhold.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.inventory.Reservable;
import dev.stockhold.reservation.ReservationStatus;

/**
 * The database as it is after the run: the rows of one tenant. {@code ledger}: per record, its movement ledger (null:
 * not read, as in the checker's own tests); {@code entriesByKey}: ledger entries per Idempotency-Key. Read directly (never through the API): the
 * checker trusts nothing the service computed for itself.
 */
record Snapshot(Map<String, StockRecord> records, Map<String, Reservation> reservations,
        List<Event> events, Map<String, IdempotencyRecord> idempotency, Map<String, Ledger> ledger, Map<String, Integer> entriesByKey,
        Map<String, Long> inTransit, Map<String, Long> openTransfers, OnItsWay onItsWay, Catalogue catalogue) {

    Snapshot(Map<String, StockRecord> records, Map<String, Reservation> reservations, List<Event> events,
            Map<String, IdempotencyRecord> idempotency, Map<String, Ledger> ledger, Map<String, Integer> entriesByKey) {
        this(records, reservations, events, idempotency, ledger, entriesByKey, Map.of(), Map.of(), OnItsWay.NONE, Catalogue.NONE);
    }

    /** The same rows with stock on its way and the catalogue as given (the checker's own tests build them by hand). */
    Snapshot with(OnItsWay supply, Catalogue sold) {
        return new Snapshot(records, reservations, events, idempotency, ledger, entriesByKey, inTransit, openTransfers, supply, sold);
    }

    Snapshot(Map<String, StockRecord> records, Map<String, Reservation> reservations, List<Event> events,
            Map<String, IdempotencyRecord> idempotency) {
        this(records, reservations, events, idempotency, null, Map.of());
    }

    /** One stock record; keyed sku@location like the stock events' subject. */
    record StockRecord(String subject, long onHand, long held, long version, long committed, long movements) {

        long available() {
            return Reservable.available(onHand, held, committed);
        }

        StockRecord(String subject, long onHand, long held, long version) {
            this(subject, onHand, held, version, 0, 0);
        }
    }

    /** A record's ledger: the sums of its entries' deltas, how many there are and the highest seq. */
    record Ledger(long onHand, long committed, long entries, long lastSeq) {
    }

    /**
     * {@code lines}: quantity by sku; {@code at}: quantity by sku@location; with deferred fulfilment, {@code fulfilled}
     * and {@code released} units by sku@location.
     */
    record Reservation(String id, String status, String key, Map<String, Integer> lines, Map<String, Integer> at, boolean deferred,
            Map<String, Integer> fulfilled, Map<String, Integer> released) {

        Reservation(String id, String status, String key, Map<String, Integer> lines, Map<String, Integer> at) {
            this(id, status, key, lines, at, false, Map.of(), Map.of());
        }

        /** Confirmed: sold at once, or with deferred fulfilment committed until fulfilled or released. */
        boolean confirmed() {
            return ReservationStatus.valueOf(status).isConfirmed();
        }
    }

    /** {@code stock}: a stock event, with its subject; else a reservation or transfer event. {@code data}: the event's data. */
    record Event(String id, long seq, String aggregateId, String kind, String status, boolean stock, String subject, JsonNode data,
            String partitionKey, long sequence) {

        /** A stock.changed written by a fulfilment. */
        boolean fulfilment() {
            return "fulfil".equals(data.path("kind").asText());
        }

        /** A stock.changed written by a warehouse count. */
        boolean count() {
            return "snapshot".equals(data.path("reason").asText());
        }
    }

    /** The stock events of each record, by subject, in write order. */
    Map<String, List<Event>> stockEvents() {
        Map<String, List<Event>> bySubject = new HashMap<>();
        events.stream().filter(Event::stock).forEach(e -> bySubject.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e));
        return bySubject;
    }

    record IdempotencyRecord(String key, int status, String reservationId) {
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The rows of {@code tenant}, read in one transaction by the caller. */
    static Snapshot read(Connection c, String tenant) throws SQLException {
        Map<String, StockRecord> records = new TreeMap<>();
        query(c, "SELECT sku || '@' || location, on_hand, held, version, committed, movements FROM stock_records WHERE tenant_id = ?",
                tenant, rs -> records.put(rs.getString(1), new StockRecord(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6))));
        Map<String, Reservation> reservations = new HashMap<>();
        query(c, "SELECT id::text, status, idempotency_key, fulfilment IS NOT NULL FROM reservations WHERE tenant_id = ?", tenant,
                rs -> reservations.put(rs.getString(1), new Reservation(rs.getString(1), rs.getString(2), rs.getString(3),
                        new LinkedHashMap<>(), new LinkedHashMap<>(), rs.getBoolean(4), new HashMap<>(), new HashMap<>())));
        query(c, """
                SELECT l.reservation_id::text, l.sku, l.quantity, coalesce(l.location, 'default'), l.fulfilled, l.released
                  FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id WHERE r.tenant_id = ?""", tenant, rs -> {
            Reservation r = reservations.get(rs.getString(1));
            String at = rs.getString(2) + "@" + rs.getString(4);
            r.lines().merge(rs.getString(2), rs.getInt(3), Integer::sum);
            r.at().put(at, rs.getInt(3));
            r.fulfilled().put(at, rs.getInt(5));
            r.released().put(at, rs.getInt(6));
        });
        Map<String, Ledger> ledger = new HashMap<>();
        query(c, """
                SELECT sku || '@' || location, sum(on_hand_delta), sum(committed_delta), count(*), max(seq) FROM stock_movements
                 WHERE tenant_id = ? GROUP BY sku, location""", tenant,
                rs -> ledger.put(rs.getString(1), new Ledger(rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5))));
        Map<String, Integer> entriesByKey = new HashMap<>();
        query(c, "SELECT idempotency_key, count(*) FROM stock_movements WHERE tenant_id = ? AND idempotency_key IS NOT NULL GROUP BY 1",
                tenant, rs -> entriesByKey.put(rs.getString(1), rs.getInt(2)));
        List<Event> events = new ArrayList<>();
        query(c, "SELECT id::text, seq, aggregate_id::text, event_type, status, payload::text FROM outbox_events WHERE tenant_id = ? ORDER BY seq",
                tenant, rs -> {
                    String[] type = rs.getString(4).split("\\.");
                    boolean stock = type[2].equals("stock");
                    JsonNode payload = parse(rs.getString(6));
                    // a transfer's events are neither a record's nor a reservation's: their kind says whose they are
                    String kind = type[2].equals("transfer") ? "transfer." + type[3] : type[3];
                    events.add(new Event(rs.getString(1), rs.getLong(2), rs.getString(3), kind, rs.getString(5), stock,
                            stock ? payload.path("subject").asText() : null, payload.path("data"),
                            payload.path("partitionkey").asText(), payload.path("sequence").asLong(0)));
                });
        Map<String, IdempotencyRecord> idempotency = new HashMap<>();
        query(c, "SELECT idempotency_key, status_code, reservation_id::text FROM idempotency_records WHERE tenant_id = ?",
                tenant, rs -> idempotency.put(rs.getString(1), new IdempotencyRecord(rs.getString(1), rs.getInt(2),
                        rs.getString(3))));
        Map<String, Long> inTransit = new TreeMap<>();
        query(c, "SELECT sku || '@' || location, in_transit FROM stock_records WHERE tenant_id = ? AND in_transit <> 0", tenant,
                rs -> inTransit.put(rs.getString(1), rs.getLong(2)));
        Map<String, Long> openTransfers = new TreeMap<>();
        query(c, """
                SELECT sku || '@' || to_location, sum(quantity - received - returned) FROM transfers
                 WHERE tenant_id = ? AND status = 'IN_TRANSIT' GROUP BY sku, to_location""", tenant,
                rs -> openTransfers.put(rs.getString(1), rs.getLong(2)));
        return new Snapshot(records, reservations, events, idempotency, ledger, entriesByKey, inTransit, openTransfers,
                OnItsWay.read(c, tenant), Catalogue.read(c, tenant));
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    static void query(Connection c, String sql, String tenant, Row row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    row.accept(rs);
                }
            }
        }
    }
}
