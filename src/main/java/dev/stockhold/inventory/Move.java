package dev.stockhold.inventory;

import dev.stockhold.events.StockChangedV1;

/**
 * The ways a reservation moves the stock records it names, each one conditional UPDATE (see {@link StockMoves#move}).
 * Reservations move only {@code held} and {@code committed}, and {@code on_hand} when a confirm or a fulfilment sells;
 * admins only {@code on_hand}; so neither can undo the other (I7). A move that changes on hand or committed writes a
 * ledger entry per record in the same statement; every move writes the stock events its change of available calls for.
 */
public enum Move {
    /** I1: held rises only where the record's reservable covers it; a record that does not is left unchanged and not returned. */
    HOLD("held = s.held + w.quantity", " AND " + Reservable.SQL + " >= w.quantity", null, null, null, -1, null),
    /**
     * A backordered line's units, allocated when its supply arrives: held rises where on hand above what is held and
     * committed covers it. Safety stock is not kept from a promise made against incoming supply.
     */
    ALLOCATE("held = s.held + w.quantity", " AND " + Reservable.AVAILABLE_SQL + " >= w.quantity", null, null, null, -1, null),
    /** Cancel and expiry: the held units are free again. */
    UNHOLD("held = s.held - w.quantity", "", null, null, null, 1, null),
    /** Confirm: the held units are sold, available is unchanged. */
    SELL("held = s.held - w.quantity, on_hand = s.on_hand - w.quantity", "", "confirm", "-w.quantity", "0", 0, null),
    /** Confirm with deferred fulfilment: the held units are committed, on hand and available are unchanged. */
    COMMIT("held = s.held - w.quantity, committed = s.committed + w.quantity", "", "confirm", "0", "w.quantity", 0, null),
    /** A fulfilment: committed units leave the location. Only where that many are committed; else not returned. */
    FULFIL("committed = s.committed - w.quantity, on_hand = s.on_hand - w.quantity", " AND s.committed >= w.quantity", "fulfil",
            "-w.quantity", "-w.quantity", 0, StockChangedV1.Kind.FULFIL),
    /** A release of committed units (POST /release): they are free again. Only where that many are committed. */
    UNCOMMIT("committed = s.committed - w.quantity", " AND s.committed >= w.quantity", "release", "0", "-w.quantity", 1, null),
    /**
     * An edit of a HELD reservation: signed quantities, held falls where they are negative and rises only where the
     * record's reservable covers the rise (I1); a record that does not cover it is left unchanged and not returned.
     */
    SHIFT("held = s.held + w.quantity", " AND (w.quantity <= 0 OR " + Reservable.SQL + " >= w.quantity)", null, null, null, -1,
            null);

    /** The move's SET list and its condition (empty, or starting with AND), over the record {@code s} and the wanted {@code w}. */
    private final String set;
    private final String condition;
    /** The statement for many records: locks them in {@link StockKey} order, then moves them. */
    final String many;
    /** The same for one record: nothing to order, so no array, sort or CTE for the planner and executor. */
    final String one;
    /** Whether the move changes on hand or committed, and so writes a ledger entry per record (holds do not). */
    final boolean ledger;
    /** How available moves per unit of the move's quantity: -1 falls, 1 rises, 0 stays. */
    final int availableSign;
    /**
     * The stock.changed kind the move reports for every record it moves (on hand moved by minus its quantity), or null:
     * it reports only the crossings its change of available makes.
     */
    final StockChangedV1.Kind changed;

    Move(String set, String condition, String kind, String onHandDelta, String committedDelta, int availableSign,
            StockChangedV1.Kind changed) {
        this.set = set;
        this.condition = condition;
        this.ledger = kind != null;
        this.availableSign = availableSign;
        this.changed = changed;
        String update = """
                UPDATE stock_records s SET %s,%s updated_at = now() FROM %s
                 WHERE s.tenant_id = ? AND s.sku = %s AND s.location = %s%s
                RETURNING %s""";
        String bump = ledger ? " movements = s.movements + 1," : "";
        String returning = ledger ? StockRow.COLUMNS + ", " + MovementLedger.returning(onHandDelta, committedDelta) : StockRow.COLUMNS;
        String oneUpdate = update.formatted(set, bump, "(SELECT ?::bigint AS quantity) w", "?", "?", condition, returning);
        // The MATERIALIZED select locks the records in (sku, location) order before the update touches any.
        String ordered = """
                WITH wanted AS (SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::bigint[]) AS w(sku, location, quantity)),
                locked AS MATERIALIZED (
                    SELECT s.sku FROM stock_records s JOIN wanted w ON s.sku = w.sku AND s.location = w.location
                     WHERE s.tenant_id = ? ORDER BY s.sku, s.location FOR UPDATE OF s)%s
                """;
        String manyUpdate = update.formatted(set, bump, "wanted w, (SELECT count(*) FROM locked) AS all_locked", "w.sku", "w.location",
                condition, returning);
        if (ledger) {
            this.one = MovementLedger.wrap("WITH ", oneUpdate, kind);
            this.many = ordered.formatted(MovementLedger.wrap(",\n", manyUpdate, kind));
        } else {
            this.one = oneUpdate;
            this.many = ordered.formatted("\n" + manyUpdate);
        }
    }

    /**
     * The move as an UPDATE of {@code stock_records s} from the wanted quantities {@code w} ({@code w.quantity}): its SET
     * list, then its condition (empty, or starting with {@code AND}). For a statement that must move records inside a
     * larger one (the one-statement reservation's hold); every other move goes through {@link StockMoves}.
     */
    public String set() {
        return set;
    }

    /** See {@link #set()}. */
    public String condition() {
        return condition;
    }
}
