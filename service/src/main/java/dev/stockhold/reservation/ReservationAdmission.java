package dev.stockhold.reservation;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.HttpHeaders;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;

import dev.stockhold.StockholdConfig;
import dev.stockhold.web.ProblemResponses;
import dev.stockhold.web.ProblemType;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Overload protection of POST /v1/reservations: an adaptive concurrency limit (Netflix concurrency-limits, Gradient2)
 * that grows while admitted requests stay as fast as the replica's best and shrinks when they queue. A request over the
 * limit is answered 503 service-unavailable with Retry-After on the event loop, before it takes a worker thread, a
 * connection or a row lock, so the requests that are admitted keep their latency and the replica keeps its throughput
 * instead of collapsing under a spike. The limit is exported as {@code stockhold_reservations_limit}.
 */
@Singleton
public class ReservationAdmission {

    static final String DETAIL = "This replica is at its concurrency limit; nothing was changed, retry after Retry-After"
            + " seconds with the same Idempotency-Key";

    private final Limiter<Void> limiter;
    private final Gradient2Limit limit;
    private final boolean enabled;
    private final ProblemResponses responses;

    ReservationAdmission(StockholdConfig config, ProblemResponses responses, MeterRegistry registry) {
        StockholdConfig.Limits limits = config.limits();
        this.enabled = limits.adaptiveReservations();
        this.limit = Gradient2Limit.newBuilder()
                .initialLimit(limits.reservationsInitialLimit())
                .minLimit(Math.min(4, limits.reservationsInitialLimit()))
                .maxConcurrency(limits.reservationsMaxLimit())
                .build();
        this.limiter = SimpleLimiter.newBuilder().limit(limit).build();
        this.responses = responses;
        registry.gauge("stockhold.reservations.limit", limit, Gradient2Limit::getLimit);
    }

    void register(@Observes Router router) {
        if (enabled) {
            // after the body was read on the event loop (order -2, BodyLimitProblems), before REST takes a worker thread
            router.route(HttpMethod.POST, "/v1/reservations").order(-1).handler(this::admit);
        }
    }

    private void admit(RoutingContext ctx) {
        Optional<Limiter.Listener> admitted = limiter.acquire(null);
        if (admitted.isEmpty()) {
            responses.end(ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1"), ProblemType.SERVICE_UNAVAILABLE, DETAIL);
            return;
        }
        Limiter.Listener listener = admitted.get();
        ctx.addEndHandler(done -> {
            int status = ctx.response().getStatusCode();
            if (done.failed() || status == 503) {
                listener.onDropped(); // the request could not be served in time: the limit shrinks
            } else if (status >= 400 && status < 500) {
                listener.onIgnore(); // refused on its merits (stock, validation): says nothing about capacity
            } else {
                listener.onSuccess();
            }
        });
        ctx.next();
    }

    /** The current limit (requests in progress this replica admits). */
    public int limit() {
        return limit.getLimit();
    }
}
