package dev.stockhold.reservation;

import dev.stockhold.idempotency.Fingerprint;
import dev.stockhold.idempotency.IdempotencyKey;

/** One reservation request on its way: alone, or through its sku's lane. */
record ReservationAttempt(String tenantId, IdempotencyKey key, Fingerprint fingerprint, ReservationRequest request) {

    String firstSku() {
        return request.lines().get(0).sku();
    }
}
