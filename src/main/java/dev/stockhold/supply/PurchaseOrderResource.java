package dev.stockhold.supply;

import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
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
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.StrictJson;

/** A purchase order: read it, receive it in parts, close it with its last receipt. */
@Path("/v1/purchase-orders")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.INVENTORY_ADMIN)
@Tag(name = "purchase orders")
@SecurityRequirement(name = "jwt")
public class PurchaseOrderResource {

    @Inject
    PurchaseOrderService orders;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;

    @GET
    @Path("{id}")
    @Operation(summary = "A purchase order, with its version as ETag")
    @APIResponse(responseCode = "200", description = "The purchase order",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PurchaseOrder.class)))
    @APIResponse(responseCode = "404", description = "purchase-order-not-found")
    public Response get(@PathParam("id") @Parameter(description = "The order's id",
            schema = @Schema(type = SchemaType.STRING, format = "uuid")) String id) {
        PurchaseOrder order = orders.find(tenant.id(), parse(id));
        return Response.ok(order).header(HttpHeaders.ETAG, order.etag()).build();
    }

    @POST
    @Path("{id}/receipts")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Receive units of a purchase order, once per Idempotency-Key: incoming to on hand, then the backordered lines "
            + "waiting for it are allocated in reservation order; with close, the rest will not come")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = PurchaseReceiptRequest.class)))
    @APIResponse(responseCode = "200", description = "The order as this receipt left it (a replay answers the same)",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PurchaseOrder.class)))
    @APIResponse(responseCode = "404", description = "purchase-order-not-found (not stored)")
    @APIResponse(responseCode = "409", description = "over-receipt (more than expected) or invalid-purchase-order-state (received in "
            + "full or closed), both stored and replayed; or idempotency-request-in-progress (with Retry-After)")
    public Response receive(@PathParam("id") @Parameter(description = "The order's id",
            schema = @Schema(type = SchemaType.STRING, format = "uuid")) String id,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true,
                    description = "One key per intent, reused on every retry (same rules as POST /v1/reservations)",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        UUID order = parse(id);
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        PurchaseReceiptRequest request = json.read(body, PurchaseReceiptRequest.class).requireValid();
        OncePerKey.Reply reply = orders.receive(tenant.id(), key, order, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }

    /** An id that is not a UUID in its canonical form names no order: the same 404 as a missing one. */
    private static UUID parse(String id) {
        UUID parsed = dev.stockhold.web.Params.uuid(id);
        if (parsed == null) {
            throw new ProblemException(ProblemType.PURCHASE_ORDER_NOT_FOUND, "No purchase order " + id);
        }
        return parsed;
    }
}
