package dev.stockhold.inventory;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.StrictJson;

/** The tenant's locations and their allocation order. */
@Path("/v1/locations")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "locations")
@SecurityRequirement(name = "jwt")
public class LocationResource {

    @Inject
    CurrentTenant tenant;
    @Inject
    StockService stock;
    @Inject
    StrictJson json;

    @PUT
    @Path("{location}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Create a location or change its priority (lower is tried first when a line names no location) and the "
            + "safety stock and low-stock threshold its records take when they have none of their own")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = LocationRequest.class)))
    @APIResponseSchema(value = Location.class, responseCode = "200", responseDescription = "The location")
    @APIResponse(responseCode = "400", description = "validation-failed or malformed-request")
    public Location put(@PathParam("location") @Parameter(description = Sku.FORMAT,
            schema = @Schema(pattern = Sku.REGEX)) String location, byte[] body) {
        Sku.require("location", location);
        LocationRequest request = json.read(body, LocationRequest.class);
        return stock.putLocation(tenant.id(), location, request.priority(), request.safetyStock(), request.lowStockThreshold());
    }

    @POST
    @Path("{location}/snapshots")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Apply a warehouse count taken at asOf, once per Idempotency-Key, without undoing what changed since")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SnapshotRequest.class)))
    @APIResponseSchema(value = SnapshotView.class, responseCode = "200",
            responseDescription = "What the count did to each record (a replay answers the same)")
    public Response snapshot(@PathParam("location") @Parameter(description = Sku.FORMAT,
            schema = @Schema(pattern = Sku.REGEX)) String location,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true,
                    description = "One key per intent, reused on every retry (same rules as POST /v1/reservations)",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        Sku.require("location", location);
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        SnapshotRequest request = json.read(body, SnapshotRequest.class).requireValid();
        OncePerKey.Reply reply = stock.count(tenant.id(), key, location, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The tenant's locations in allocation order (priority, then name); default is always listed")
    @APIResponseSchema(value = Location.Page.class, responseCode = "200", responseDescription = "The locations")
    public Location.Page list() {
        return stock.locations(tenant.id());
    }
}
