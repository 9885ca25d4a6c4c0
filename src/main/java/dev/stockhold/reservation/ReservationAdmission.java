package dev.stockhold.reservation;

import java.util.Optional;

import jakarta.inject.Singleton;

import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;

import dev.stockhold.LimitsConfig;
import dev.stockhold.StockholdConfig;
import dev.stockhold.security.AdmissionGate;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * Overload protection of POST /v1/reservations: an adaptive concurrency limit (Netflix concurrency-limits, Gradient2)
 * that grows while admitted requests stay as fast as the replica's best and shrinks when they queue. A request over the
 * limit is answered 503 service-unavailable with Retry-After on the event loop (dev.stockhold.security.Admission), after
 * its body was read and its token checked, before it takes a worker thread, a connection or a row lock, so the requests
 * that are admitted keep their latency and the replica keeps its throughput instead of collapsing under a spike. The
 * limit is exported as {@code stockhold_reservations_limit}.
 */
@Singleton
public class ReservationAdmission implements AdmissionGate {

    static final String RESERVATIONS = "/v1/reservations";

    static final String DETAIL = "This replica is at its concurrency limit; nothing was changed, retry after Retry-After"
            + " seconds with the same Idempotency-Key";

    private final SimpleLimiter<Void> limiter;
    private final Gradient2Limit limit;
    private final boolean enabled;

    ReservationAdmission(StockholdConfig config, MeterRegistry registry) {
        LimitsConfig limits = config.limits();
        this.enabled = limits.adaptiveReservations();
        this.limit = Gradient2Limit.newBuilder()
                .initialLimit(limits.reservationsInitialLimit())
                .minLimit(Math.min(4, limits.reservationsInitialLimit()))
                .maxConcurrency(limits.reservationsMaxLimit())
                .build();
        this.limiter = SimpleLimiter.newBuilder().limit(limit).build();
        registry.gauge("stockhold.reservations.limit", limit, Gradient2Limit::getLimit);
    }

    @Override
    public Optional<Place> tryAdmit(RoutingContext request) {
        return isReservationPost(request) ? tryAcquire() : Optional.of(Place.NONE);
    }

    @Override
    public String refusal() {
        return DETAIL;
    }

    /** The path as both the router and JAX-RS match it (RequestBodies refuses matrix parameters). */
    static boolean isReservationPost(RoutingContext ctx) {
        if (ctx.request().method() != HttpMethod.POST) {
            return false;
        }
        String path = ctx.normalizedPath();
        return path.equals(RESERVATIONS) || path.equals(RESERVATIONS + "/");
    }

    /** A slot, to be told how the request ended; empty when the replica is at its limit. */
    Optional<Place> tryAcquire() {
        if (!enabled) {
            return Optional.of(Place.NONE);
        }
        return limiter.acquire(null).map(listener -> status -> {
            if (status == 503 || status < 0) {
                listener.onDropped(); // the request could not be served in time (or failed): the limit shrinks
            } else if (status >= 400 && status < 500) {
                listener.onIgnore(); // refused on its merits (stock, validation): says nothing about capacity
            } else {
                listener.onSuccess();
            }
        });
    }

    /**
     * Requests holding a place now. A place is given back when the response has been written, which a client may see
     * a moment after it has read the response.
     */
    public int inFlight() {
        return limiter.getInflight();
    }

    /** The current limit (requests in progress this replica admits). */
    public int limit() {
        return limit.getLimit();
    }
}
