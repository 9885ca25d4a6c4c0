package dev.stockhold;

import org.jboss.logging.MDC;

import io.quarkus.logging.Log;

/**
 * One INFO line per business outcome: a reservation's (created, replayed, confirmed, ...) or a stock record's (set,
 * adjusted, ...). Tenant, idempotency key and reservation id go into the MDC as well, so the prod JSON log carries them
 * as fields beside the trace id; never tokens or bodies.
 */
public final class OutcomeLog {

    private OutcomeLog() {
    }

    /** A reservation's outcome; {@code detail} may be null. */
    public static void reservation(String outcome, String tenantId, String idempotencyKey, Object reservationId, String detail) {
        log("reservation", outcome, tenantId, idempotencyKey, reservationId, detail);
    }

    /** A stock record's outcome; {@code idempotencyKey} is null for a set, {@code detail} names the record. */
    public static void stock(String outcome, String tenantId, String idempotencyKey, String detail) {
        log("stock", outcome, tenantId, idempotencyKey, null, detail);
    }

    private static void log(String subject, String outcome, String tenantId, String idempotencyKey, Object reservationId,
            String detail) {
        MDC.put("tenant", tenantId);
        MDC.put("idempotencyKey", String.valueOf(idempotencyKey));
        MDC.put("reservationId", String.valueOf(reservationId));
        try {
            Log.infof("%s %s tenant=%s key=%s id=%s%s", subject, outcome, tenantId, idempotencyKey, reservationId,
                    detail == null ? "" : " " + detail);
        } finally {
            MDC.remove("tenant");
            MDC.remove("idempotencyKey");
            MDC.remove("reservationId");
        }
    }
}
