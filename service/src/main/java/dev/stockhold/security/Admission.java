package dev.stockhold.security;

import java.util.Optional;

import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.HttpHeaders;

import org.eclipse.microprofile.jwt.JsonWebToken;

import dev.stockhold.reservation.ReservationAdmission;
import dev.stockhold.web.ProblemResponses;
import dev.stockhold.web.ProblemType;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Who may take a place in this replica, in this order, on the event loop, after the whole body was read
 * (dev.stockhold.web.RequestBodies): the token is verified first, so a request without a valid one takes no place and
 * is answered 401 by the API; then the tenant's share (429 too-many-requests, TenantConcurrencyLimiter), so one tenant
 * cannot fill the replica; then, for POST /v1/reservations only, the replica's adaptive limit (503,
 * ReservationAdmission). Places are given back when the response ends, however it ends.
 */
public class Admission {

    static final String RESERVATIONS = "/v1/reservations";

    private final TenantConcurrencyLimiter tenants;
    private final ReservationAdmission reservations;
    private final ProblemResponses responses;

    Admission(TenantConcurrencyLimiter tenants, ReservationAdmission reservations, ProblemResponses responses) {
        this.tenants = tenants;
        this.reservations = reservations;
        this.responses = responses;
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
                who -> onLoop(loop, () -> admit(ctx, tenantOf(who))),
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
        Optional<ReservationAdmission.Slot> slot = Optional.of(status -> {
        });
        if (isReservationPost(ctx)) {
            slot = reservations.tryAcquire();
            if (slot.isEmpty()) {
                tenantPermit.get().run();
                responses.end(ctx.response().putHeader(HttpHeaders.RETRY_AFTER, "1"), ProblemType.SERVICE_UNAVAILABLE,
                        ReservationAdmission.DETAIL);
                return;
            }
        }
        ReservationAdmission.Slot admitted = slot.get();
        ctx.addEndHandler(done -> {
            tenantPermit.get().run();
            admitted.release(done.failed() ? -1 : ctx.response().getStatusCode());
        });
        ctx.next();
    }

    /** The path as both the router and JAX-RS match it (RequestBodies refuses matrix parameters). */
    static boolean isReservationPost(RoutingContext ctx) {
        if (ctx.request().method() != HttpMethod.POST) {
            return false;
        }
        String path = ctx.normalizedPath();
        return path.equals(RESERVATIONS) || path.equals(RESERVATIONS + "/");
    }

    private static Optional<String> tenantOf(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken jwt)) {
            return Optional.empty();
        }
        Object claim = jwt.getClaim(TenantClaim.NAME);
        return TenantClaim.isValid(claim) ? Optional.of((String) claim) : Optional.empty();
    }

    private static void onLoop(Context loop, Runnable action) {
        if (loop == null || Vertx.currentContext() == loop) {
            action.run();
        } else {
            loop.runOnContext(v -> action.run());
        }
    }
}
