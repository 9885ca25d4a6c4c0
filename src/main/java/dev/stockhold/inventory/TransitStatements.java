package dev.stockhold.inventory;

/**
 * The statements a transfer moves one stock record with, each one conditional UPDATE that writes its ledger entry (naming
 * the transfer) in the same statement ({@link MovementLedger#wrap}). received moves with on hand wherever a transfer
 * moves on hand, so on_hand = received - sold stays auditable at every record (I2), and a tenant's received + in_transit
 * summed over its records is what transfers never change.
 */
enum TransitStatements {
    /** Shipped from the record: on hand falls, never below what is held, committed and kept as safety stock there. */
    OUT("on_hand = s.on_hand - w.q, received = s.received - w.q",
            " AND s.on_hand - w.q >= " + Reservable.PROMISED_SQL + " + s.safety_stock",
            "transfer-out", "-w.q", "0"),
    /** On its way to the record (a negative quantity: a cancel took back what had not arrived). */
    IN_TRANSIT("in_transit = s.in_transit + w.q", " AND s.in_transit + w.q >= 0", "in-transit", "0", "w.q"),
    /** Received at the record: from in transit to on hand. Only what is in transit there. */
    IN("in_transit = s.in_transit - w.q, on_hand = s.on_hand + w.q, received = s.received + w.q", " AND s.in_transit >= w.q",
            "transfer-in", "w.q", "-w.q"),
    /** Returned to the record it was shipped from by a cancel. */
    RETURN("on_hand = s.on_hand + w.q, received = s.received + w.q", "", "transfer-return", "w.q", "0");

    /** Parameters: quantity, transfer id, tenant, sku, location, then the ledger entry's five ({@link Source#bind}). */
    final String sql;

    TransitStatements(String set, String condition, String kind, String onHandDelta, String inTransitDelta) {
        this.sql = MovementLedger.wrap("WITH ", """
                UPDATE stock_records s SET %s, version = s.version + 1, movements = s.movements + 1, updated_at = now()
                  FROM (SELECT ?::bigint AS q, ?::uuid AS transfer) w
                 WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ?%s
                RETURNING %s, %s""".formatted(set, condition, StockRow.COLUMNS,
                MovementLedger.returning(onHandDelta, "0", inTransitDelta, "w.transfer")), kind);
    }
}
