package dev.stockhold.inventory;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.StrictJson;

/** The tenant's kits: skus sold as sets of other skus, reserved by their components. */
@Path("/v1/kits")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "kits")
@SecurityRequirement(name = "jwt")
public class KitResource {

    private static final String SKU = "The kit's sku: " + Sku.FORMAT;

    @Inject
    CurrentTenant tenant;
    @Inject
    Kits kits;
    @Inject
    StrictJson json;

    @PUT
    @Path("{sku}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Create a kit or replace its components; with If-Match, compare-and-set on the version")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = KitRequest.class)))
    @APIResponse(responseCode = "200", description = "The kit as this write left it",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Kit.class)))
    @APIResponse(responseCode = "400", description = "validation-failed (a component twice, the kit itself, a kit, or a kit sku with "
            + "stock of its own), malformed-request")
    @APIResponse(responseCode = "412", description = "precondition-failed: If-Match is not the current version (or the kit does not "
            + "exist); nothing changed")
    public Response put(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @HeaderParam(HttpHeaders.IF_MATCH) @Parameter(in = ParameterIn.HEADER, name = HttpHeaders.IF_MATCH,
                    description = "The ETag of the version this write replaces; * for any existing version; absent: unconditional",
                    schema = @Schema(type = SchemaType.STRING)) String ifMatch,
            byte[] body) {
        Sku.require("sku", sku);
        IfMatch precondition = IfMatch.parse(ifMatch);
        KitRequest request = json.read(body, KitRequest.class).requireValid(sku);
        Kit written = kits.put(tenant.id(), sku, request, precondition);
        return Response.ok(written).tag(String.valueOf(written.version())).build();
    }

    @GET
    @Path("{sku}")
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "One kit, with its version as ETag")
    @APIResponse(responseCode = "200", description = "The kit",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Kit.class)))
    @APIResponse(responseCode = "404", description = "kit-not-found")
    public Response get(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku) {
        Sku.require("sku", sku);
        Kit found = kits.of(tenant.id(), java.util.List.of(sku)).get(sku);
        if (found == null) {
            throw new ProblemException(ProblemType.KIT_NOT_FOUND, "No kit '" + sku + "'");
        }
        return Response.ok(found).tag(String.valueOf(found.version())).build();
    }

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The tenant's kits by sku")
    @APIResponseSchema(value = Kit.Page.class, responseCode = "200", responseDescription = "The kits")
    public Kit.Page list() {
        return new Kit.Page(kits.all(tenant.id()));
    }
}
