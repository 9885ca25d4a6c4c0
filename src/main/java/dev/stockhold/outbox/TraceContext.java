package dev.stockhold.outbox;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

/** The W3C {@code traceparent} of the current span, stored with each outbox row and sent with its event. */
public final class TraceContext {

    private TraceContext() {
    }

    /** @return {@code 00-<trace-id>-<span-id>-<flags>}, or null outside any trace */
    public static String currentTraceparent() {
        SpanContext context = Span.current().getSpanContext();
        if (!context.isValid()) {
            return null;
        }
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }
}
