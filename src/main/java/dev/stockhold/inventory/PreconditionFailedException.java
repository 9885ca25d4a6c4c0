package dev.stockhold.inventory;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** precondition-failed: If-Match names a version the stock record no longer has. */
public class PreconditionFailedException extends ProblemException {

    public PreconditionFailedException(StockKey at, String current) {
        super(ProblemType.PRECONDITION_FAILED, "If-Match does not match the current version of " + at.subject()
                + (current == null ? " (it does not exist)" : " (now " + current + ")") + "; nothing was changed");
    }
}
