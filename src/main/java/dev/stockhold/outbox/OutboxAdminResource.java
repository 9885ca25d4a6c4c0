package dev.stockhold.outbox;

import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.StockholdConfig;
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.Params;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.StrictJson;

/** Outbox administration (role ops), scoped like everything else to the caller's tenant (I5). */
@Path("/v1/admin/outbox")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.OPS)
@Tag(name = "outbox-admin")
@SecurityRequirement(name = "jwt")
public class OutboxAdminResource {

    @Inject
    OutboxBacklog backlog;
    @Inject
    DeadEvents deadEvents;
    @Inject
    CurrentTenant tenant;
    @Inject
    RelaySignal relay;
    @Inject
    StrictJson json;
    @Inject
    StockholdConfig config;

    /** The backlog as the admin endpoint shows it. */
    @Schema(name = "OutboxSummary")
    public record Summary(@Schema(required = true) long pending, @Schema(required = true) long dead,
            @Schema(required = true) double oldestPendingAgeSeconds) {
    }

    @GET
    @Operation(summary = "Pending and dead events, and the age of the oldest pending one")
    @APIResponseSchema(value = Summary.class, responseCode = "200", responseDescription = "The backlog")
    public Summary summary() {
        OutboxBacklog.OutboxStats stats = backlog.stats(tenant.id());
        return new Summary(stats.pending(), stats.dead(), stats.oldestPendingAgeSeconds());
    }

    @GET
    @Path("dead")
    @Operation(summary = "Dead events with their last error, oldest first")
    @APIResponse(responseCode = "200", description = "Dead events",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = DeadEvents.DeadEvent[].class)))
    @APIResponse(responseCode = "400", description = "validation-failed: limit is not an integer from 1 to 1000")
    public List<DeadEvents.DeadEvent> dead(@QueryParam("limit") @Parameter(description = "1 to 1000, default 100",
            schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1000", defaultValue = "100")) String limit) {
        return deadEvents.dead(tenant.id(), Params.integer("limit", limit, 1, 1000, 100));
    }

    /** Which dead events a bulk requeue takes; every field is optional, and absent fields do not filter. */
    @Schema(name = "OutboxRequeueFilter")
    public record RequeueFilter(
            @Schema(description = "Only events of this CloudEvents type", example = "dev.stockhold.reservation.created.v1") @Size(min = 1,
                    max = 100) String type,
            @Schema(description = "Only events written at or after this instant (RFC 3339)", format = "date-time") String since,
            @Schema(description = "Only events written before this instant (RFC 3339)", format = "date-time") String until) {

        DeadEvents.DeadFilter toFilter() {
            return new DeadEvents.DeadFilter(type, Params.instant("since", since), Params.instant("until", until));
        }
    }

    /** The answer to a bulk requeue. */
    @Schema(name = "OutboxBulkRequeued")
    public record BulkRequeued(@Schema(required = true) int requeued) {
    }

    @POST
    @Path("dead/requeue")
    @Operation(summary = "Send every matching dead event of the tenant back to pending, in write order, in batches")
    @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RequeueFilter.class)))
    @APIResponseSchema(value = BulkRequeued.class, responseCode = "200", responseDescription = "How many dead events went back to pending")
    @APIResponse(responseCode = "400", description = "malformed-request or validation-failed: the filter is not valid")
    public BulkRequeued requeueAll(byte[] body) {
        RequeueFilter filter = body == null || body.length == 0 ? new RequeueFilter(null, null, null)
                : json.read(body, RequeueFilter.class);
        DeadEvents.DeadFilter dead = filter.toFilter();
        int batchSize = config.relay().requeueBatchSize();
        int total = 0;
        long after = 0;
        DeadEvents.RequeuedBatch batch;
        do {
            // one short transaction per batch; seq order, so a reservation's events go back in the order they were written
            batch = deadEvents.requeueBatch(tenant.id(), dead, after, batchSize);
            total += batch.count();
            after = batch.lastSeq();
            if (batch.count() > 0) {
                relay.nudge();
            }
        } while (batch.count() == batchSize);
        return new BulkRequeued(total);
    }

    @POST
    @Path("dead/{id}/requeue")
    @Operation(summary = "Send a dead event back to pending with a fresh attempt budget")
    @APIResponseSchema(value = Requeued.class, responseCode = "200",
            responseDescription = "Requeued; the relay publishes it in order with its reservation's later events")
    @APIResponse(responseCode = "404", description = "outbox-event-not-found: no dead event with this id")
    public Requeued requeue(@PathParam("id") String id) {
        UUID eventId;
        try {
            eventId = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw notFound(id);
        }
        if (!deadEvents.requeue(tenant.id(), eventId)) {
            throw notFound(id);
        }
        relay.nudge();
        return new Requeued(eventId, "PENDING");
    }

    /** The answer to a requeue. */
    @Schema(name = "OutboxRequeued")
    public record Requeued(@Schema(required = true) UUID id, @Schema(required = true) String status) {
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(ProblemType.OUTBOX_EVENT_NOT_FOUND, "No dead outbox event '" + id + "'");
    }
}
