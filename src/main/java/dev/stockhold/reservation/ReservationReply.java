package dev.stockhold.reservation;

import dev.stockhold.idempotency.StoredResponse;

/** The answer to POST /v1/reservations: a stored outcome, fresh or replayed. */
public record ReservationReply(StoredResponse response, boolean replayed) {
}
