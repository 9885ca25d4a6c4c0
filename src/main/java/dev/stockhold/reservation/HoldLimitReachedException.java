package dev.stockhold.reservation;

import java.time.Instant;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** hold-limit-reached: an extend would hold the reservation past its creation plus the maximum hold. */
public class HoldLimitReachedException extends ProblemException {

    public HoldLimitReachedException(Instant limit) {
        super(ProblemType.HOLD_LIMIT_REACHED, "This reservation may be held until " + limit
                + " at the latest (stockhold.reservations.max-hold from its creation); nothing was changed");
    }
}
