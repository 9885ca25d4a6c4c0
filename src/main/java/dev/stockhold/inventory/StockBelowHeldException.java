package dev.stockhold.inventory;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** stock-below-held: a set or adjustment would leave on hand below what reservations hold and have committed. */
public class StockBelowHeldException extends ProblemException {

    public StockBelowHeldException(StockKey at, long heldAndCommitted, long wanted) {
        super(ProblemType.STOCK_BELOW_HELD, "On hand of " + at.subject() + " would be " + wanted + ", below the " + heldAndCommitted
                + " units reservations hold or have committed; nothing was changed");
    }
}
