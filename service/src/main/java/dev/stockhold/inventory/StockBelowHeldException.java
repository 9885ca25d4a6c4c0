package dev.stockhold.inventory;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** stock-below-held: a set or adjustment would leave on hand below what reservations hold. */
public class StockBelowHeldException extends ProblemException {

    public StockBelowHeldException(StockKey at, long held, long wanted) {
        super(ProblemType.STOCK_BELOW_HELD, "On hand of " + at.subject() + " would be " + wanted + ", below the " + held
                + " units reservations hold; nothing was changed");
    }
}
