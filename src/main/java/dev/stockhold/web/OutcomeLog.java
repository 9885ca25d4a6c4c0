package dev.stockhold.web;

import org.jboss.logging.MDC;

import io.quarkus.logging.Log;

/**
 * One INFO line per business outcome. Tenant, idempotency key and reservation id go into the MDC as well, so the
 * prod JSON log carries them as fields beside the trace id; never tokens or bodies.
 */
public final class OutcomeLog {

    private OutcomeLog() {
    }

    public static void info(String outcome, String tenantId, String idempotencyKey, Object reservationId, String detail) {
        MDC.put("tenant", tenantId);
        MDC.put("idempotencyKey", String.valueOf(idempotencyKey));
        MDC.put("reservationId", String.valueOf(reservationId));
        try {
            Log.infof("reservation %s tenant=%s key=%s id=%s%s", outcome, tenantId, idempotencyKey, reservationId,
                    detail == null ? "" : " " + detail);
        } finally {
            MDC.remove("tenant");
            MDC.remove("idempotencyKey");
            MDC.remove("reservationId");
        }
    }
}
