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

    /**
     * The message: every value a client chose is quoted with {@code "} and {@code \\} escaped, so a key such as
     * {@code x" id=1 tenant=other} stays one value for a parser that reads key=value pairs from the message.
     */
    static String line(String subject, String outcome, String tenantId, String idempotencyKey, Object reservationId,
            String detail) {
        return subject + " " + outcome + " tenant=" + quote(tenantId) + " key=" + quote(idempotencyKey) + " id="
                + quote(reservationId == null ? null : reservationId.toString()) + (detail == null ? "" : " " + detail);
    }

    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder quoted = new StringBuilder(value.length() + 2).append('"');
        value.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                quoted.append('\\').appendCodePoint(c);
            } else if (c < 0x20 || c == 0x7f) {
                quoted.append(String.format("\\u%04x", c));
            } else {
                quoted.appendCodePoint(c);
            }
        });
        return quoted.append('"').toString();
    }

    private static void log(String subject, String outcome, String tenantId, String idempotencyKey, Object reservationId,
            String detail) {
        MDC.put("tenant", tenantId);
        MDC.put("idempotencyKey", String.valueOf(idempotencyKey));
        MDC.put("reservationId", String.valueOf(reservationId));
        try {
            Log.info(line(subject, outcome, tenantId, idempotencyKey, reservationId, detail));
        } finally {
            MDC.remove("tenant");
            MDC.remove("idempotencyKey");
            MDC.remove("reservationId");
        }
    }
}
