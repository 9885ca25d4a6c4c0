package dev.stockhold.reservation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.Jdbc;
import dev.stockhold.StockholdConfig;
import dev.stockhold.events.ReservationPromiseLine;
import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.Move;
import dev.stockhold.inventory.Reservable;
import dev.stockhold.inventory.Source;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.inventory.StockRecord;
import dev.stockhold.outbox.AutocommitEvents;
import dev.stockhold.outbox.OutboxWriter;

/**
 * The only writer of new reservations, on every route: one statement over arrays writes, for each reservation, its row,
 * its lines (one per record it holds) and its created event. It comes in two forms of the same text:
 * <ul>
 * <li>{@link #ALONE}: one reservation that also claims its key, with the stored answer, and takes its hold (I1), committing
 * on its own: the plain path ({@link OneStatementReservation}, which maps its outcomes);</li>
 * <li>{@link #JOINED}: any number of reservations in the caller's transaction, whose keys it has already claimed; the
 * hold then goes through {@link StockMoves}, which writes the stock events it calls for
 * ({@link #write}: hot-sku groups, the plain path's transaction, split, partial and capped requests).</li>
 * </ul>
 * A new column of a reservation or of its lines is added here, once.
 */
@ApplicationScoped
class NewReservations {

    /**
     * The lines a reservation gains after it was written: backordered units that arrived ({@link Backorders}). A
     * backordered unit arrived: the reservation's row at the record holds one more (a new row when it has none
     * there).
     */
    static final String ADD_TO_LINE = """
            WITH raised AS (
                UPDATE reservation_lines SET quantity = quantity + ? WHERE reservation_id = ? AND sku = ? AND coalesce(location, 'default') = ?
                RETURNING 1)
            INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location)
            SELECT ?, (SELECT coalesce(max(line_no) + 1, 0) FROM reservation_lines WHERE reservation_id = ?), ?, ?, ?
             WHERE NOT EXISTS (SELECT FROM raised)
            """;

    /**
     * The rows of every reservation, its lines and its created event, from the arrays; {@code %1$s} WITH (RECURSIVE
     * for the alone form, whose claim reads the guess check written after it), {@code %2$s} the key's wait (the alone
     * form), {@code %3$s} the claimed keys with their tenant and reservation id.
     */
    private static final String ROWS = """
            %s p AS MATERIALIZED (
                SELECT %s?::varchar AS tenant_id, ?::varchar AS traceparent, ?::varchar AS leased_to, ?::bigint AS lease_ms),
            r AS (SELECT * FROM unnest(?::uuid[], ?::varchar[], ?::bytea[], ?::text[], ?::varchar[], ?::timestamptz[], ?::timestamptz[],
                                       ?::varchar[], ?::text[], ?::varchar[], ?::varchar[], ?::text[], ?::varchar[], ?::uuid[], ?::varchar[],
                                       ?::text[], ?::text[])
                    AS r(id, idempotency_key, fingerprint, body, location, created_at, expires_at, reference, metadata, fulfilment,
                         allocation, requested_lines, channel, event_id, event_type, partition_key, payload)),
            claimed AS (%s),
            line AS (SELECT * FROM unnest(?::uuid[], ?::integer[], ?::varchar[], ?::integer[], ?::varchar[], ?::boolean[])
                       AS l(reservation_id, line_no, sku, quantity, location, guessed)),
            reservation AS (
                INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at, reference, metadata,
                                          fulfilment, allocation, requested_lines, channel)
                SELECT r.id, c.tenant_id, 'HELD', r.idempotency_key, r.created_at, r.expires_at, r.created_at, r.reference, r.metadata,
                       r.fulfilment, r.allocation, r.requested_lines, r.channel
                  FROM r JOIN claimed c ON c.id = r.id
                RETURNING id),
            lines AS (
                INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity, location)
                SELECT l.reservation_id, l.line_no, l.sku, l.quantity, l.location FROM line l JOIN reservation x ON x.id = l.reservation_id),
            event AS (
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, partition_key, event_type, payload, traceparent, created_at, available_at,
                                           locked_by, locked_until)
                SELECT r.event_id, c.tenant_id, r.id, r.partition_key, r.event_type, r.payload, p.traceparent, now(), now(),
                       p.leased_to, now() + p.lease_ms * interval '1 millisecond' FROM p, r JOIN claimed c ON c.id = r.id
                RETURNING seq, created_at)""";

    /**
     * The alone form's claim of the key, with its stored answer: nothing is written for a key already stored, nor when a
     * guessed location is no longer its sku's first record (misplaced), which the statement then answers instead of
     * raising an error.
     */
    private static final String CLAIM = """

            INSERT INTO idempotency_records
                (tenant_id, idempotency_key, fingerprint, status_code, response_body, location, reservation_id, created_at)
            SELECT p.tenant_id, r.idempotency_key, r.fingerprint, 201, r.body, r.location, r.id, now() FROM p, r
             WHERE NOT EXISTS (SELECT FROM misplaced)
            ON CONFLICT (tenant_id, idempotency_key) DO NOTHING
            RETURNING tenant_id, reservation_id AS id""";

    /** The alone form's hold of the claimed reservation's lines (as {@link Move#HOLD}), its checks and its answer. */
    private static final String HOLD = """
            ,
            wanted AS (SELECT l.sku, l.location, sum(l.quantity)::bigint AS quantity FROM line l JOIN claimed c ON c.id = l.reservation_id
                        GROUP BY l.sku, l.location),
            locked AS MATERIALIZED (
                SELECT s.sku FROM stock_records s JOIN wanted w ON s.sku = w.sku AND s.location = w.location
                 WHERE s.tenant_id = (SELECT tenant_id FROM claimed WHERE set_config('lock_timeout', ?, true) IS NOT NULL LIMIT 1)
                 ORDER BY s.sku, s.location FOR UPDATE OF s),
            hold AS (
                UPDATE stock_records s SET %2$s, updated_at = now()
                  FROM wanted w, (SELECT count(*) FROM locked) AS all_locked
                 WHERE s.tenant_id = (SELECT tenant_id FROM claimed LIMIT 1) AND s.sku = w.sku AND s.location = w.location%3$s
                RETURNING %1$s AS available, s.safety_stock, s.low_stock_threshold, w.quantity),
            misplaced AS (
                SELECT x.line_no FROM line x
                 WHERE x.guessed AND x.location IS DISTINCT FROM (
                       SELECT s.location FROM stock_records s LEFT JOIN locations l ON l.tenant_id = s.tenant_id AND l.location = s.location
                        WHERE s.tenant_id = (SELECT tenant_id FROM p) AND s.sku = x.sku
                        ORDER BY coalesce(l.priority, 100), s.location LIMIT 1))
            SELECT stockhold_hold_check((SELECT count(*) FROM claimed), (SELECT count(*) FROM hold), (SELECT count(*) FROM wanted),
                                        (SELECT count(*) FROM hold WHERE available = safety_stock
                                            OR available <= low_stock_threshold AND available + quantity > low_stock_threshold)),
                   (SELECT seq FROM event), (SELECT created_at FROM event), (SELECT count(*) FROM misplaced)
            """
            .formatted(Reservable.AVAILABLE_SQL, Move.HOLD.set(), Move.HOLD.condition());

    /**
     * One reservation that claims its key and takes its hold, committing on its own; its last parameter is the record
     * wait. The first set_config (local: the statement's implicit transaction) runs first, as every insert reads the row
     * of p: it bounds the wait for a key an in-flight original holds. Every insert reads the claimed keys, so nothing is
     * written for a key already stored. The MATERIALIZED select reads the claimed key (so the key is settled first), then
     * sets the record wait, and locks the records in (sku, location) order before the hold touches any, as
     * {@link Move#HOLD} does. Two waits because a duplicate must give up its sku's lane soon, while a request that owns
     * its key waits for a hot record as long as the transactional path would. The guess check (misplaced) is written last
     * but read by the claim (so WITH RECURSIVE): a stale guess claims nothing and is an answer, never an ERROR in the
     * server's log; and the key's insert stays within the first 1,024 bytes, the part of a statement pg_stat_activity shows: operators
     * and tests find a duplicate waiting on its key by that text.
     */
    static final String ALONE = ROWS.formatted("WITH RECURSIVE", "set_config('lock_timeout', ?, true) AS lock_wait, ", CLAIM) + HOLD;
    /** Any number of reservations in the caller's transaction, which has claimed their keys: no key, no hold. */
    static final String JOINED = ROWS.formatted("WITH", "", "SELECT p.tenant_id, r.id FROM p, r") + "\nSELECT count(*) FROM reservation";

    /**
     * One reservation of a statement: its key, the reservation as placed and its created event's row; the fingerprint
     * and the stored answer only when the statement claims the key ({@link #ALONE}), else null.
     */
    record Entry(String key, ReservationView view, AutocommitEvents.LeasedRow event, Fingerprint fingerprint, StoredResponse created) {
    }

    @Inject
    Jdbc jdbc;
    @Inject
    OutboxWriter outbox;
    @Inject
    StockMoves stock;
    @Inject
    StockholdConfig config;

    /**
     * The reservations with their created events ({@link #JOINED}), then (last, so the records' row locks are held only
     * until commit) one conditional hold of their summed quantities per stock record, with the stock events it calls for.
     * Runs in the caller's transaction, which has claimed every key (no interceptor on this hot path).
     *
     * @param byKey the reservations by idempotency key
     * @return false if some record did not have the units: the caller rolls the transaction back
     */
    boolean write(String tenantId, Map<String, ReservationView> byKey, Instant now) {
        return write(tenantId, byKey, now, List.of());
    }

    /**
     * The same for one reservation that also waits for supply: its created event names what it was promised.
     *
     * @param promised the backordered units of the (only) reservation, per supply; empty when it waits for nothing
     */
    boolean write(String tenantId, Map<String, ReservationView> byKey, Instant now, List<ReservationPromiseLine> promised) {
        List<OutboxWriter.DomainEvent> created = byKey.values().stream().map(held -> ReservationEvents.created(held, promised)).toList();
        List<AutocommitEvents.LeasedRow> events = outbox.opening(tenantId, created, now);
        List<Entry> entries = new ArrayList<>();
        SortedMap<StockKey, Long> quantities = new TreeMap<>();
        int i = 0;
        for (Map.Entry<String, ReservationView> e : byKey.entrySet()) {
            entries.add(new Entry(e.getKey(), e.getValue(), events.get(i++), null, null));
            e.getValue().quantities().forEach((key, qty) -> quantities.merge(key, qty, Long::sum));
        }
        jdbc.withConnection(Jdbc.Mode.JOIN, c -> {
            try (PreparedStatement ps = c.prepareStatement(JOINED)) {
                bind(c, ps, 0, tenantId, entries, List.of());
                ps.execute();
            }
            return null;
        });
        // another replica may hold a record: wait for it as long as for an in-flight key
        List<StockRecord> moved = stock.move(Move.HOLD, tenantId, quantities, Source.reservation(null, null, null),
                config.idempotency().inFlightWait(), now);
        return moved.size() == quantities.size();
    }

    /**
     * Binds the parameters of p, r and line after the first {@code i}: the tenant, the events' trace and lease (the same
     * for every event of a statement: the first one's), one array element per reservation, one per line.
     *
     * @param guessed per row of the entries' lines in order, whether its location was a guess to check ({@link #ALONE}); empty: none
     * @return the index of the last parameter bound
     */
    static int bind(Connection c, PreparedStatement ps, int i, String tenantId, List<Entry> entries, List<Boolean> guessed)
            throws SQLException {
        AutocommitEvents.LeasedRow first = entries.get(0).event();
        ps.setString(++i, tenantId);
        ps.setString(++i, first.traceparent());
        ps.setString(++i, first.leasedTo());
        ps.setObject(++i, first.leaseMillis(), java.sql.Types.BIGINT);
        ps.setArray(++i, array(c, "uuid", entries, e -> e.view().id()));
        ps.setArray(++i, array(c, "varchar", entries, Entry::key));
        // byte[][]: the driver encodes a byte[] element only in an array of its own type
        ps.setArray(++i, c.createArrayOf("bytea",
                entries.stream().map(e -> e.fingerprint() == null ? null : e.fingerprint().sha256()).toArray(byte[][]::new)));
        ps.setArray(++i, array(c, "text", entries, e -> e.created() == null ? null : e.created().body()));
        ps.setArray(++i, array(c, "varchar", entries, e -> e.created() == null ? null : e.created().location()));
        ps.setArray(++i, array(c, "timestamptz", entries, e -> e.view().createdAt().toString()));
        ps.setArray(++i, array(c, "timestamptz", entries, e -> e.view().expiresAt().toString()));
        ps.setArray(++i, array(c, "varchar", entries, e -> e.view().reference()));
        ps.setArray(++i, array(c, "text", entries, e -> e.view().metadataJson()));
        ps.setArray(++i, array(c, "varchar", entries, e -> e.view().fulfilment()));
        ps.setArray(++i, array(c, "varchar", entries, e -> e.view().allocation()));
        ps.setArray(++i, array(c, "text", entries, e -> e.view().requestedJson()));
        ps.setArray(++i, array(c, "varchar", entries, e -> e.view().channel()));
        ps.setArray(++i, array(c, "uuid", entries, e -> e.event().id()));
        ps.setArray(++i, array(c, "varchar", entries, e -> e.event().type()));
        ps.setArray(++i, array(c, "text", entries, e -> e.event().partitionKey()));
        ps.setArray(++i, array(c, "text", entries, e -> e.event().payload()));
        List<Object[]> rows = new ArrayList<>();
        for (Entry e : entries) {
            List<ReservationView.Line> lines = e.view().rows();
            for (int n = 0; n < lines.size(); n++) {
                ReservationView.Line line = lines.get(n);
                boolean guess = rows.size() < guessed.size() && guessed.get(rows.size());
                rows.add(new Object[]{ e.view().id(), n, line.sku(), line.quantity(), line.location(), guess });
            }
        }
        String[] types = { "uuid", "integer", "varchar", "integer", "varchar", "boolean" };
        for (int column = 0; column < types.length; column++) {
            int k = column;
            ps.setArray(++i, c.createArrayOf(types[column], rows.stream().map(row -> row[k]).toArray()));
        }
        return i;
    }

    private static java.sql.Array array(Connection c, String type, List<Entry> entries, Function<Entry, Object> column)
            throws SQLException {
        return c.createArrayOf(type, entries.stream().map(column).toArray());
    }
}
