package dev.stockhold.inventory;

/**
 * What a reservation may take from a stock record, written once: {@code available} is on hand less every unit promised
 * (held and committed), {@code reservable} is available less the safety stock, never below 0. The Java form serves
 * the API, the events and the auditor; the SQL form is the same expression over a {@code stock_records} row, and every
 * statement that refuses or ranks by it uses it (I1). {@code ReservableTest} holds the two to the same answers.
 */
public final class Reservable {

    /** available over a {@code stock_records} row aliased {@code s}. */
    public static final String AVAILABLE_SQL = "(s.on_hand - s.held - s.committed)";
    /** reservable before its floor at 0, over a {@code stock_records} row aliased {@code s}: refuses a hold above it. */
    public static final String SQL = "(" + AVAILABLE_SQL + " - s.safety_stock)";

    private Reservable() {
    }

    /** onHand - held - committed: the units not promised to anyone. */
    public static long available(long onHand, long held, long committed) {
        return onHand - held - committed;
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
