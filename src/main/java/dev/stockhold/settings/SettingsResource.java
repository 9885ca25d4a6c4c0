package dev.stockhold.settings;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
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

/** The tenant's settings: caps that keep one client from holding a flash sale's stock. */
@Path("/v1/settings")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "settings")
@SecurityRequirement(name = "jwt")
public class SettingsResource {

    @Inject
    CurrentTenant tenant;
    @Inject
    Settings settings;
    @Inject
    StrictJson json;

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The tenant's caps on reservations ({} when none is set)")
    @APIResponseSchema(value = TenantSettings.class, responseCode = "200", responseDescription = "The settings")
    public TenantSettings get() {
        return settings.current(tenant.id());
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Replace the tenant's caps on reservations (a cap left out is lifted); applies to reservations made "
            + "from then on, on every replica within a second")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TenantSettings.class)))
    @APIResponseSchema(value = TenantSettings.class, responseCode = "200", responseDescription = "The settings as stored")
    @APIResponse(responseCode = "400", description = "validation-failed or malformed-request")
    public TenantSettings put(byte[] body) {
        return settings.put(tenant.id(), json.read(body, TenantSettings.class));
    }
}
