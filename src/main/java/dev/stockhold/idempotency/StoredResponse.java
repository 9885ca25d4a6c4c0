package dev.stockhold.idempotency;

import java.util.UUID;

/** The outcome of an executed request as first given: what every replay of its key answers. */
public record StoredResponse(int status, String body, String location, UUID reservationId) {

    public boolean isProblem() {
        return status >= 400;
    }
}
