package dev.stockhold.reservation;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** reservation-not-found: no such reservation for this tenant (another tenant's looks exactly the same). */
public class ReservationNotFoundException extends ProblemException {

    public ReservationNotFoundException(String id) {
        super(ProblemType.RESERVATION_NOT_FOUND, "No reservation '" + id + "'");
    }
}
