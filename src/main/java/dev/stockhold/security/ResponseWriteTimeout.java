package dev.stockhold.security;

import java.time.Duration;

import io.quarkus.logging.Log;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/**
 * An answer handed to the connection must be written out within {@code stockhold.limits.response-write-timeout}. A
 * client that stops reading (an HTTP/2 receive window of zero kept open with PINGs, a stalled TCP window) would
 * otherwise keep the answer's bytes queued and its tenant's place taken for as long as the connection lives; past the
 * timeout its HTTP/2 stream is reset (CANCEL: the queued bytes are dropped, the connection's other streams go on) or its
 * HTTP/1.1 connection closed. The reservation it answered is committed either way: a retry with the same
 * Idempotency-Key gets the stored answer.
 */
final class ResponseWriteTimeout {

    private static final String TIMER = "stockhold.response-write-timer";
    /** RFC 9113 section 7: the stream is no longer needed. */
    private static final long CANCEL = 0x8;

    private final long millis;

    ResponseWriteTimeout(Duration timeout) {
        this.millis = timeout.toMillis();
    }

    void start(RoutingContext ctx) {
        if (millis <= 0) {
            return;
        }
        long timer = ctx.vertx().setTimer(millis, id -> {
            Log.debugf("Answer not written out within %d ms: %s cut", millis,
                    ctx.request().version() == HttpVersion.HTTP_2 ? "stream" : "connection");
            if (ctx.request().version() == HttpVersion.HTTP_2) {
                ctx.response().reset(CANCEL);
            } else {
                ctx.request().connection().close();
            }
        });
        ctx.put(TIMER, timer);
    }

    void cancel(RoutingContext ctx) {
        Long timer = ctx.get(TIMER);
        if (timer != null) {
            ctx.vertx().cancelTimer(timer);
        }
    }
}
