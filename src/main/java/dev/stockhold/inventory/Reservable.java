package dev.stockhold.inventory;

/**
 * What a reservation may take from a stock record, written once: {@code available} is on hand less every unit promised
 * (held and committed), {@code reservable} is available less the safety stock, never below 0. The Java form serves
 * the API, the events and the auditor; the SQL form is the same expression over a {@code stock_records} row, and every
 * statement that refuses or ranks by it uses it (I1). {@code ReservableTest} holds the two to the same answers.
 */
public final class Reservable {

    /** The units promised to someone (held and committed) over a {@code stock_records} row aliased {@code s}. */
    public static final String PROMISED_SQL = "(s.held + s.committed)";
    /** available over a {@code stock_records} row aliased {@code s}. */
    public static final String AVAILABLE_SQL = "(s.on_hand - " + PROMISED_SQL + ")";
    /** reservable before its floor at 0, over a {@code stock_records} row aliased {@code s}: refuses a hold above it. */
    public static final String SQL = "(" + AVAILABLE_SQL + " - s.safety_stock)";

    private Reservable() {
    }

    /** held + committed: the units promised to someone, which no set, adjustment or count may take on hand below. */
    public static long promised(long held, long committed) {
        return held + committed;
    }

    /** onHand - held - committed: the units not promised to anyone. */
    public static long available(long onHand, long held, long committed) {
        return onHand - promised(held, committed);
    }

    /** max(0, available - safetyStock): what a reservation can still take. */
    public static long of(long onHand, long held, long committed, long safetyStock) {
        return Math.max(0, available(onHand, held, committed) - safetyStock);
    }

    /** {@link #SQL} over a row aliased {@code alias} instead of {@code s}. */
    public static String sql(String alias) {
        return SQL.replace("s.", alias + ".");
    }
}
