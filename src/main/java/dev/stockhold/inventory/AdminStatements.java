package dev.stockhold.inventory;

/**
 * The statements of the admin writes on stock_records ({@link StockRecords}): creating records, sets, adjustments,
 * counts and the limits a record takes. Each change of on hand is wrapped by {@link MovementLedger#wrap}, so its ledger
 * entry is written by the same statement.
 */
final class AdminStatements {

    // A new record takes its location's defaults. The location's row is locked (shared) while the record is created,
    // so a concurrent change of the defaults either comes first and is read, or waits and then finds the record. A kit
    // has no stock of its own: no record is made for one, and the write that asked is refused (Kits.haveNoStock).
    static final String CREATE = """
            INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received, version, safety_stock, low_stock_threshold)
            SELECT l.tenant_id, ?, l.location, 0, 0, 0, 0, l.safety_stock, l.low_stock_threshold FROM locations l
             WHERE l.tenant_id = ? AND l.location = ? AND NOT EXISTS (SELECT 1 FROM kits k WHERE k.tenant_id = l.tenant_id AND k.sku = ?)
               FOR SHARE OF l
            ON CONFLICT DO NOTHING
            """;
    static final String CREATE_MANY = """
            INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received, version, safety_stock, low_stock_threshold)
            SELECT l.tenant_id, w.sku, l.location, 0, 0, 0, 0, l.safety_stock, l.low_stock_threshold
              FROM (SELECT * FROM locations WHERE tenant_id = ? AND location = ? FOR SHARE) l, unnest(?::varchar[]) AS w(sku)
             WHERE NOT EXISTS (SELECT 1 FROM kits k WHERE k.tenant_id = l.tenant_id AND k.sku = w.sku)
             ORDER BY w.sku
            ON CONFLICT DO NOTHING
            """;
    // I7: an absolute set of on hand, never below held and committed; received moves by the same amount, so
    // on_hand = received - sold stays auditable (I2). A set is a count as of its own time (its ledger entry's): a count
    // taken before it is stale. counted_at keeps "a count at or before this time is stale", so the set keeps one
    // microsecond (the clock's step) less than its time: a count as of the set's very time is not older than it.
    static final String SET = MovementLedger.wrap("WITH ", """
            UPDATE stock_records s SET received = s.received + ? - s.on_hand, on_hand = ?, version = s.version + 1,
                   movements = s.movements + 1, counted_at = greatest(s.counted_at, now() - interval '1 microsecond'),
                   updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ? AND ? >= %s
            RETURNING\s""".formatted(Reservable.PROMISED_SQL) + StockRow.COLUMNS + ", " + MovementLedger.returning("?", "0"), "set");
    // I1, I7: a delta, never below what is held and committed (and so never below zero)
    static final String ADJUST = MovementLedger.wrap("WITH ", """
            UPDATE stock_records s SET on_hand = s.on_hand + ?, received = s.received + ?, version = s.version + 1,
                   movements = s.movements + 1, updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ? AND s.on_hand + ? >= %s
            RETURNING\s""".formatted(Reservable.PROMISED_SQL) + StockRow.COLUMNS + ", " + MovementLedger.returning("?", "0"), "adjust");
    // A count with the changes since it: on hand as counted, received moving with it (I2), the count's time kept
    static final String SNAPSHOT = MovementLedger.wrap("WITH ", """
            UPDATE stock_records s SET received = s.received + ? - s.on_hand, on_hand = ?, version = s.version + 1,
                   movements = s.movements + 1, counted_at = ?, updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ? AND ? >= %s
            RETURNING\s""".formatted(Reservable.PROMISED_SQL) + StockRow.COLUMNS + ", " + MovementLedger.returning("?", "0"), "snapshot");
    static final String COUNTED = "UPDATE stock_records SET counted_at = ? WHERE tenant_id = ? AND sku = ? AND location = ?";
    static final String LOCK_COUNTED = "SELECT " + StockRow.COLUMNS + """
            , s.counted_at FROM stock_records s WHERE s.tenant_id = ? AND s.location = ? AND (? OR s.sku = ANY (?::varchar[]))
             ORDER BY s.sku FOR UPDATE""";
    // The records that take the location's defaults, moved to them in sku order; each answered as it was and as it is.
    static final String TAKE_DEFAULTS = """
            WITH before AS MATERIALIZED (
                SELECT s.sku, s.safety_stock, s.low_stock_threshold FROM stock_records s
                 WHERE s.tenant_id = ? AND s.location = ? AND (s.own_safety_stock IS NULL OR s.own_low_stock_threshold IS NULL)
                 ORDER BY s.sku FOR UPDATE OF s)
            UPDATE stock_records s SET safety_stock = coalesce(s.own_safety_stock, ?), low_stock_threshold = coalesce(s.own_low_stock_threshold, ?)
              FROM before b
             WHERE s.tenant_id = ? AND s.location = ? AND s.sku = b.sku
               AND (s.safety_stock <> coalesce(s.own_safety_stock, ?) OR s.low_stock_threshold <> coalesce(s.own_low_stock_threshold, ?))
            RETURNING\s"""
            + StockRow.COLUMNS + ", b.safety_stock AS safety_stock_before, b.low_stock_threshold AS low_stock_threshold_before";
    // A record's own values, where given (NULL keeps them), and the values in force that follow from them.
    static final String OWN_LIMITS = """
            UPDATE stock_records s SET own_safety_stock = coalesce(?::bigint, s.own_safety_stock),
                   own_low_stock_threshold = coalesce(?::bigint, s.own_low_stock_threshold),
                   safety_stock = coalesce(?::bigint, s.own_safety_stock, (SELECT l.safety_stock FROM locations l
                                   WHERE l.tenant_id = s.tenant_id AND l.location = s.location), 0),
                   low_stock_threshold = coalesce(?::bigint, s.own_low_stock_threshold, (SELECT l.low_stock_threshold FROM locations l
                                   WHERE l.tenant_id = s.tenant_id AND l.location = s.location), 0),
                   updated_at = now()
             WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ?
            RETURNING\s""" + StockRow.COLUMNS;

    private AdminStatements() {
    }
}
