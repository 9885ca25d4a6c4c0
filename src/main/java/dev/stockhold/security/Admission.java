package dev.stockhold.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.ws.rs.core.HttpHeaders;

import dev.stockhold.web.ProblemResponses;
import dev.stockhold.web.ProblemType;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Who may take a place in this replica, in this order, on the event loop, after the whole body was read
 * (dev.stockhold.web.RequestBodies): the token is verified first, so a request without a valid one takes no place and
 * is answered 401 by the API; then the tenant's share (429 too-many-requests, TenantConcurrencyLimiter), so one tenant
 * cannot fill the replica; then the tenant's share of the connection pool (waited for, TenantPoolShare); then the gates features put on their own requests (503; the reservation path's adaptive
 * limit, dev.stockhold.reservation.ReservationAdmission). The gates' places are given back when the answer is handed
 * to the connection, the tenant's when it is written out or cut by the write timeout (ResponseWriteTimeout), however
 * the request ends.
 */
public class Admission {

    /** The status a place is released with when another gate refused the request: a 4xx, says nothing of capacity. */
    static final int NOT_SERVED = 499;

    private final TenantConcurrencyLimiter tenants;
    private final List<AdmissionGate> gates;
    private final ProblemResponses responses;
    private final ResponseWriteTimeout writeTimeout;
    private final TenantPoolShare poolShare;

    Admission(TenantConcurrencyLimiter tenants, @jakarta.enterprise.inject.Any Instance<AdmissionGate> gates,
            ProblemResponses responses, dev.stockhold.StockholdConfig config, TenantPoolShare poolShare) {
        this.poolShare = poolShare;
        this.tenants = tenants;
        this.gates = gates.stream().toList();
        this.responses = responses;
        this.writeTimeout = new ResponseWriteTimeout(config.limits().responseWriteTimeout());
    }

    void register(@Observes Router router) {
        router.route("/v1/*").order(-1).handler(this::admit);
    }

    private void admit(RoutingContext ctx) {
        Uni<SecurityIdentity> identity = ctx.get(QuarkusHttpUser.DEFERRED_IDENTITY_KEY);
        if (identity == null) {
            ctx.next();
            return;
        }
        Context loop = Vertx.currentContext();
        identity.subscribe().with(
                who -> onLoop(loop, () -> admit(ctx, TenantClaim.of(who))),
                failure -> onLoop(loop, ctx::next)); // the API answers 401 with the same (memoized) failure
    }

    private void admit(RoutingContext ctx, Optional<String> tenant) {
        if (tenant.isEmpty()) {
            ctx.next(); // anonymous or without a tenant: no place taken, the API answers 401
            return;
        }
        Optional<Runnable> tenantPermit = tenants.tryAcquire(tenant.get());
        if (tenantPermit.isEmpty()) {
            responses.end(ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1"), ProblemType.TOO_MANY_REQUESTS,
                    "This tenant already has " + tenants.limit() + " requests in progress; retry after the indicated delay");
            return;
        }
        Runnable tenantPlace = tenantPermit.get();
        poolShare.acquire(ctx.vertx(), tenant.get(), share -> admit(ctx, tenantPlace, share), () -> {
            tenantPlace.run();
            responses.end(ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1"), ProblemType.SERVICE_UNAVAILABLE,
                    "This tenant's requests hold their share of the database connections (" + poolShare.share()
                            + "); nothing was changed, retry after Retry-After seconds");
        });
    }

    /** With the tenant's place and its share of the pool: the features' gates, then the request. */
    private void admit(RoutingContext ctx, Runnable tenantPermit, Runnable share) {
        if (ctx.response().closed() || ctx.response().ended()) {
            share.run(); // the client went away while the request waited for its share
            tenantPermit.run();
            return;
        }
        List<AdmissionGate.Place> places = new ArrayList<>();
        places.add(status -> share.run());
        for (AdmissionGate gate : gates) {
            Optional<AdmissionGate.Place> place = gate.tryAdmit(ctx);
            if (place.isEmpty()) {
                tenantPermit.run();
                places.forEach(p -> p.release(NOT_SERVED));
                responses.end(ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1"), ProblemType.SERVICE_UNAVAILABLE,
                        gate.refusal());
                return;
            }
            places.add(place.get());
        }
        // A place is for work on the database, not for the client's reading speed: the replica's places are given back
        // when the answer is handed over (HandOver); the tenant's when it has been written out, so answers one tenant
        // does not read count against that tenant only, and at most until the write timeout cuts them.
        HandOver handOver = new HandOver(places, writeTimeout, ctx);
        ctx.put(HandOver.KEY, handOver);
        ctx.addHeadersEndHandler(v -> handOver.run(ctx.response().getStatusCode()));
        ctx.addEndHandler(done -> {
            tenantPermit.run();
            writeTimeout.cancel(ctx);
            handOver.run(-1); // ended before any answer was handed over: the client went away
        });
        ctx.next();
    }

    private static void onLoop(Context loop, Runnable action) {
        if (loop == null || Vertx.currentContext() == loop) {
            action.run();
        } else {
            loop.runOnContext(v -> action.run());
        }
    }
}
