package dev.stockhold.reservation;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** invalid-reservation-state: the transition is not allowed from the reservation's current state. */
public class InvalidReservationStateException extends ProblemException {

    public InvalidReservationStateException(String detail) {
        super(ProblemType.INVALID_RESERVATION_STATE, detail);
    }
}
