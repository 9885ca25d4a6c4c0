package dev.stockhold.inventory;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.StrictJson;

/** The tenant's locations and their allocation order. */
@Path("/v1/locations")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "locations")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "429", description = "too-many-requests: the tenant is at its concurrency limit (Retry-After)",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "401", description = "unauthorized: no, invalid or expired token, or no tenant_id",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "403", description = "forbidden: the token lacks the role",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class LocationResource {

    private final CurrentTenant tenant;
    private final StockService stock;
    private final StrictJson json;

    LocationResource(CurrentTenant tenant, StockService stock, StrictJson json) {
        this.tenant = tenant;
        this.stock = stock;
        this.json = json;
    }

    @PUT
    @Path("{location}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Create a location or change its priority (lower is tried first when a line names no location)")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = LocationRequest.class)))
    @APIResponse(responseCode = "200", description = "The location",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Location.class)))
    @APIResponse(responseCode = "400", description = "validation-failed or malformed-request",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = "payload-too-large",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "415", description = "unsupported-media-type",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public Location put(@PathParam("location") @Parameter(description = "1-64 characters of [A-Za-z0-9._:-]",
            schema = @Schema(pattern = Sku.REGEX)) String location, byte[] body) {
        Sku.require("location", location);
        LocationRequest request = json.read(body, LocationRequest.class);
        return stock.putLocation(tenant.id(), location, request.priority());
    }

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The tenant's locations in allocation order (priority, then name); default is always listed")
    @APIResponse(responseCode = "200", description = "The locations",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Location.Page.class)))
    public Location.Page list() {
        return stock.locations(tenant.id());
    }
}
