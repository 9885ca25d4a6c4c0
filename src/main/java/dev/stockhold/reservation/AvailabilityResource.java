package dev.stockhold.reservation;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.StrictJson;

/** POST /v1/availability: the dry run of a reservation (docs/api.md). */
@Path("/v1/availability")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
@Tag(name = "reservations")
@SecurityRequirement(name = "jwt")
public class AvailabilityResource {

    @Inject
    Availability availability;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Where a reservation with these lines would be placed now, and what each line has available; writes nothing")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = AvailabilityRequest.class)))
    @APIResponseSchema(value = AvailabilityView.class, responseCode = "200",
            responseDescription = "The placement a reservation made now would get")
    @APIResponse(responseCode = "400", description = "malformed-request, validation-failed")
    @APIResponse(responseCode = "422", description = "unknown-channel: the request names a channel the tenant does not have")
    public AvailabilityView check(byte[] body) {
        return availability.of(tenant.id(), json.read(body, AvailabilityRequest.class).requireDistinctSkus());
    }
}
