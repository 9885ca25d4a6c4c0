package dev.stockhold.supply;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
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
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.inventory.Sku;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.StrictJson;

/** POST /v1/items/{sku}/stock/{location}/incoming: a purchase order, units the location expects by a date. */
@Path("/v1/items/{sku}/stock/{location}/incoming")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.INVENTORY_ADMIN)
@Tag(name = "purchase orders")
@SecurityRequirement(name = "jwt")
public class IncomingResource {

    @Inject
    PurchaseOrderService orders;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Expect units at a location by a date (a purchase order), once per Idempotency-Key: the record's incoming "
            + "rises, and backorders may be promised against them")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = IncomingRequest.class)))
    @APIResponse(responseCode = "201", description = "The purchase order (or the replay of the one made with this key)",
            headers = {
                    @Header(name = HttpHeaders.LOCATION, description = "/v1/purchase-orders/{id}",
                            schema = @Schema(type = SchemaType.STRING)),
                    @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)) },
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PurchaseOrder.class)))
    @APIResponse(responseCode = "409", description = "idempotency-request-in-progress (with Retry-After)")
    public Response expect(@PathParam("sku") @Parameter(description = Sku.FORMAT, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @PathParam("location") @Parameter(description = Sku.FORMAT, schema = @Schema(pattern = Sku.REGEX)) String location,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true,
                    description = "One key per intent, reused on every retry (same rules as POST /v1/reservations)",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        StockKey at = new StockKey(Sku.require("sku", sku), Sku.require("location", location));
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        IncomingRequest request = json.read(body, IncomingRequest.class).requireValid();
        OncePerKey.Reply reply = orders.expect(tenant.id(), key, at, request);
        return reply.response().answer(reply.replayed());
    }
}
