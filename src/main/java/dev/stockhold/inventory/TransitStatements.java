package dev.stockhold.inventory;

/**
 * The statements a transfer or a purchase order moves one stock record with, each one conditional UPDATE that writes its ledger entry (naming
 * the transfer) in the same statement ({@link MovementLedger#wrap}). received moves with on hand wherever a transfer
 * moves on hand, so on_hand = received - sold stays auditable at every record (I2), and a tenant's received + in_transit
 * summed over its records is what transfers never change.
 */
enum TransitStatements {
    /** Shipped from the record: on hand falls, never below what is held, committed and kept as safety stock there. */
    OUT("on_hand = s.on_hand - w.q, received = s.received - w.q",
            " AND s.on_hand - w.q >= " + Reservable.PROMISED_SQL + " + s.safety_stock",
            "transfer-out", "-w.q", "0", true),
    /** On its way to the record (a negative quantity: a cancel took back what had not arrived). */
    IN_TRANSIT("in_transit = s.in_transit + w.q", " AND s.in_transit + w.q >= 0", "in-transit", "0", "w.q", true),
    /** Received at the record: from in transit to on hand. Only what is in transit there. */
    IN("in_transit = s.in_transit - w.q, on_hand = s.on_hand + w.q, received = s.received + w.q", " AND s.in_transit >= w.q",
            "transfer-in", "w.q", "-w.q", true),
    /** Returned to the record it was shipped from by a cancel. */
    RETURN("on_hand = s.on_hand + w.q, received = s.received + w.q", "", "transfer-return", "w.q", "0", true),
    /** A purchase order expects units at the record (a negative quantity: the order closed with these still out). */
    EXPECT("incoming = s.incoming + w.q", " AND s.incoming + w.q >= 0", null, "0", "0", false),
    /** A purchase order's units arrived: from incoming to on hand. Only what the record expects. */
    PURCHASE_IN("on_hand = s.on_hand + w.q, received = s.received + w.q, incoming = s.incoming - w.q", " AND s.incoming >= w.q",
            "purchase-receipt", "w.q", "0", false);

    /**
     * Parameters: quantity, the transfer's or purchase order's id, tenant, sku, location, then (with a ledger entry) the
     * entry's five ({@link Source#bind}).
     */
    final String sql;
    /**
     * Whether the statement writes a ledger entry (a change of on hand or in transit); incoming alone is none. The
     * record's version rises with on hand only, as every change of on hand has its stock.changed.
     */
    final boolean ledger;

    TransitStatements(String set, String condition, String kind, String onHandDelta, String inTransitDelta, boolean transfer) {
        this.ledger = kind != null;
        String update = """
                UPDATE stock_records s SET %s,%s updated_at = now()
                  FROM (SELECT ?::bigint AS q, ?::uuid AS supply) w
                 WHERE s.tenant_id = ? AND s.sku = ? AND s.location = ?%s
                RETURNING %s""".formatted(set, !ledger ? "" : onHandDelta.equals("0") ? " movements = s.movements + 1,"
                : " version = s.version + 1, movements = s.movements + 1,", condition, StockRow.COLUMNS);
        this.sql = ledger ? MovementLedger.wrap("WITH ", update + ", " + (transfer
                ? MovementLedger.returning(onHandDelta, "0", inTransitDelta, "w.supply")
                : MovementLedger.returning(onHandDelta, "0", inTransitDelta, "NULL", "w.supply")), kind) : update;
    }
}
