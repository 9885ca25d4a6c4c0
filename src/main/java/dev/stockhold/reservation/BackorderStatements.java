package dev.stockhold.reservation;

/** The statements of {@link Backorders}: supplies, promises, and what a reservation waits for. */
final class BackorderStatements {

    /** The nil UUID: the supply of unpromised units. */
    static final String NO_SUPPLY = "00000000-0000-0000-0000-000000000000";

    /**
     * Locks every open supply of these skus: purchase orders, then transfers in transit with an expected date, each in
     * id order (every writer of supplies locks them so). Only locks: under READ COMMITTED a statement reads as of its
     * start, so promises made by the writers it waited for are read by the next statement ({@link #OPEN_SUPPLIES}).
     */
    static final String LOCK_SUPPLIES = """
            WITH po AS (
                SELECT id FROM purchase_orders
                 WHERE tenant_id = ? AND sku = ANY (?::varchar[]) AND status = 'OPEN' ORDER BY id FOR UPDATE),
            tr AS (
                SELECT id FROM transfers
                 WHERE tenant_id = ? AND sku = ANY (?::varchar[]) AND status = 'IN_TRANSIT' AND expected_at IS NOT NULL
                 ORDER BY id FOR UPDATE)
            SELECT (SELECT count(*) FROM po) + (SELECT count(*) FROM tr)
            """;

    /** The open supplies of these skus with their units not yet promised, in expected order. */
    static final String OPEN_SUPPLIES = """
            WITH po AS (
                SELECT id, sku, location, expected_at, quantity - received AS remaining FROM purchase_orders
                 WHERE tenant_id = ? AND sku = ANY (?::varchar[]) AND status = 'OPEN'),
            tr AS (
                SELECT id, sku, to_location AS location, expected_at, quantity - received - returned AS remaining FROM transfers
                 WHERE tenant_id = ? AND sku = ANY (?::varchar[]) AND status = 'IN_TRANSIT' AND expected_at IS NOT NULL)
            SELECT s.id, s.sku, s.location, s.expected_at,
                   s.remaining - coalesce((SELECT sum(p.quantity) FROM promises p WHERE p.tenant_id = ? AND p.supply_id = s.id), 0) AS open
              FROM (SELECT * FROM po UNION ALL SELECT * FROM tr) s
             ORDER BY s.expected_at, s.id
            """;

    /** The reservations that wait for a supply, locked in id order (before any stock record: as cancel and expiry lock them). */
    static final String LOCK_WAITING = """
            SELECT id FROM reservations
             WHERE id IN (SELECT reservation_id FROM promises WHERE tenant_id = ? AND supply_id = ?) AND tenant_id = ?
             ORDER BY id FOR UPDATE
            """;

    /** A supply's promises in reservation order: who is served first when it arrives. */
    static final String PROMISES_OF = """
            SELECT reservation_id, line_no, sku, location, quantity, reserved_at FROM promises
             WHERE tenant_id = ? AND supply_id = ? ORDER BY reserved_at, reservation_id, line_no
            """;

    static final String INSERT_PROMISE = """
            INSERT INTO promises (tenant_id, reservation_id, line_no, sku, location, supply_id, quantity, promised_at, reserved_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (tenant_id, reservation_id, line_no, supply_id) DO UPDATE SET quantity = promises.quantity + EXCLUDED.quantity
            """;

    /** Takes some of a promise's units (only when it has more). */
    static final String TAKE_PART = """
            UPDATE promises SET quantity = quantity - ?
             WHERE tenant_id = ? AND reservation_id = ? AND line_no = ? AND supply_id = ? AND quantity > ?
            """;

    /** Takes all of a promise's units: it is deleted. */
    static final String TAKE_ALL = """
            DELETE FROM promises WHERE tenant_id = ? AND reservation_id = ? AND line_no = ? AND supply_id = ? AND quantity = ?
            """;

    static final String PROMISES_OF_RESERVATION = """
            SELECT line_no, supply_id, quantity, promised_at, sku, location FROM promises WHERE tenant_id = ? AND reservation_id = ?
             ORDER BY line_no, promised_at NULLS LAST, supply_id
            """;

    /** A reservation that ended gives back its promises and waits for nothing: its answer no longer shows backordered units. */
    static final String FORGET = """
            WITH gone AS (DELETE FROM promises WHERE tenant_id = ? AND reservation_id = ?)
            UPDATE reservations SET awaiting = 0, backorders = NULL WHERE tenant_id = ? AND id = ?
            """;

    /**
     * What the reservation waits for, written with its promises; when it waits for nothing more its hold starts now
     * (expires_at = now + backorder_ttl). Only on a HELD reservation.
     */
    static final String WAITS = """
            UPDATE reservations SET awaiting = ?, backorders = ?, backorder_ttl = coalesce(?::integer, backorder_ttl), updated_at = ?,
                   version = version + 1,
                   expires_at = CASE WHEN ? THEN ?::timestamptz + coalesce(?::integer, backorder_ttl) * interval '1 second'
                                     ELSE expires_at END
             WHERE tenant_id = ? AND id = ? AND status = 'HELD'
            """;

    private BackorderStatements() {
    }
}
