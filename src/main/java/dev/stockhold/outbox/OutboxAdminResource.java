package dev.stockhold.outbox;

import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.security.TenantLimited;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** Outbox administration (role ops), scoped like everything else to the caller's tenant (I5). */
@Path("/v1/admin/outbox")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPS)
@TenantLimited
@Tag(name = "outbox-admin")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "429", description = "too-many-requests: the tenant is at its concurrency limit (Retry-After)",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "401", description = "unauthorized",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "403", description = "forbidden: the token lacks the role ops",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class OutboxAdminResource {

    private final OutboxStore store;
    private final CurrentTenant tenant;
    private final RelaySignal relay;

    OutboxAdminResource(OutboxStore store, CurrentTenant tenant, RelaySignal relay) {
        this.store = store;
        this.tenant = tenant;
        this.relay = relay;
    }

    /** The backlog as the admin endpoint shows it. */
    @Schema(name = "OutboxSummary")
    public record Summary(long pending, long dead, double oldestPendingAgeSeconds) {
    }

    @GET
    @Operation(summary = "Pending and dead events, and the age of the oldest pending one")
    @APIResponse(responseCode = "200", description = "The backlog",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Summary.class)))
    public Summary summary() {
        OutboxStore.OutboxStats stats = store.stats(tenant.id());
        return new Summary(stats.pending(), stats.dead(), stats.oldestPendingAgeSeconds());
    }

    @GET
    @Path("dead")
    @Operation(summary = "Dead events with their last error, oldest first")
    @APIResponse(responseCode = "200", description = "Dead events",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OutboxStore.DeadEvent[].class)))
    public List<OutboxStore.DeadEvent> dead(@QueryParam("limit") Integer limit) {
        int max = limit == null ? 100 : Math.max(1, Math.min(limit, 1000));
        return store.dead(tenant.id(), max);
    }

    @POST
    @Path("dead/{id}/requeue")
    @Operation(summary = "Send a dead event back to pending with a fresh attempt budget")
    @APIResponse(responseCode = "200", description = "Requeued; the relay publishes it in order with its reservation's later events",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Requeued.class)))
    @APIResponse(responseCode = "404", description = "outbox-event-not-found: no dead event with this id",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Requeued requeue(@PathParam("id") String id) {
        UUID eventId;
        try {
            eventId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw notFound(id);
        }
        if (!store.requeue(tenant.id(), eventId)) {
            throw notFound(id);
        }
        relay.nudge();
        return new Requeued(eventId, "PENDING");
    }

    /** The answer to a requeue. */
    @Schema(name = "OutboxRequeued")
    public record Requeued(UUID id, String status) {
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(ProblemType.OUTBOX_EVENT_NOT_FOUND, "No dead outbox event '" + id + "'");
    }
}
