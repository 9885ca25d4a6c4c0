package dev.stockhold.security;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.vertx.ext.web.RoutingContext;

/**
 * The moment an admitted request's answer is handed to the connection: its gates' places are given back (once, with
 * the answer's status) and the write timeout starts. JAX-RS answers are handed over when their response filters run,
 * before the body is written, because the writer may wait for the client to read (a zero HTTP/2 window) before the
 * headers go out (HandOverFilter); answers made outside JAX-RS when their headers are written.
 */
final class HandOver {

    static final String KEY = "stockhold.admission.hand-over";

    private final AtomicBoolean done = new AtomicBoolean();
    private final List<AdmissionGate.Place> places;
    private final ResponseWriteTimeout writeTimeout;
    private final RoutingContext ctx;

    HandOver(List<AdmissionGate.Place> places, ResponseWriteTimeout writeTimeout, RoutingContext ctx) {
        this.places = List.copyOf(places);
        this.writeTimeout = writeTimeout;
        this.ctx = ctx;
    }

    /** @param status the answer's status, or negative when the request ended without one */
    void run(int status) {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        places.forEach(place -> place.release(status));
        if (status >= 0) {
            writeTimeout.start(ctx);
        }
    }

}
