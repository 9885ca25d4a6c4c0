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

/** The tenant's sales channels: ordered groups of locations that reservations, availability and stock reads may name. */
@Path("/v1/channels")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "channels")
@SecurityRequirement(name = "jwt")
public class ChannelResource {

    private static final String NAME = "The channel: " + Sku.FORMAT;

    @Inject
    CurrentTenant tenant;
    @Inject
    Channels channels;
    @Inject
    StrictJson json;

    @PUT
    @Path("{channel}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Create a channel or replace its locations; with If-Match, compare-and-set on the version")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ChannelRequest.class)))
    @APIResponse(responseCode = "200", description = "The channel as this write left it",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Channel.class)))
    @APIResponse(responseCode = "400", description = "validation-failed (a location twice, or one the tenant does not have), "
            + "malformed-request")
    @APIResponse(responseCode = "412", description = "precondition-failed: If-Match is not the current version (or the channel "
            + "does not exist); nothing changed")
    public Response put(@PathParam("channel") @Parameter(description = NAME, schema = @Schema(pattern = Sku.REGEX)) String channel,
            @HeaderParam(HttpHeaders.IF_MATCH) @Parameter(in = ParameterIn.HEADER, name = HttpHeaders.IF_MATCH,
                    description = "The ETag of the version this write replaces, e.g. \"4\"; * for any existing version; "
                            + "absent: create or replace unconditionally",
                    schema = @Schema(type = SchemaType.STRING)) String ifMatch,
            byte[] body) {
        Sku.require("channel", channel);
        IfMatch precondition = IfMatch.parse(ifMatch);
        ChannelRequest request = json.read(body, ChannelRequest.class).requireDistinct();
        Channel written = channels.put(tenant.id(), channel, request.locations(), precondition);
        return Response.ok(written).tag(String.valueOf(written.version())).build();
    }

    @GET
    @Path("{channel}")
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "One channel, with its version as ETag")
    @APIResponse(responseCode = "200", description = "The channel",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\": send it as If-Match to replace the channel",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Channel.class)))
    @APIResponse(responseCode = "404", description = "channel-not-found")
    public Response get(@PathParam("channel") @Parameter(description = NAME, schema = @Schema(pattern = Sku.REGEX)) String channel) {
        Sku.require("channel", channel);
        Channel found = channels.find(tenant.id(), channel);
        if (found == null) {
            throw new ProblemException(ProblemType.CHANNEL_NOT_FOUND, "No channel '" + channel + "'");
        }
        return Response.ok(found).tag(String.valueOf(found.version())).build();
    }

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The tenant's channels by name")
    @APIResponseSchema(value = Channel.Page.class, responseCode = "200", responseDescription = "The channels")
    public Channel.Page list() {
        return new Channel.Page(channels.all(tenant.id()));
    }
}
