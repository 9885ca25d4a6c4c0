package dev.stockhold.transfer;

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

/** Transfers between the tenant's locations: ship, receive (in parts), cancel, read. */
@Path("/v1/transfers")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.INVENTORY_ADMIN)
@Tag(name = "transfers")
@SecurityRequirement(name = "jwt")
public class TransferResource {

    private static final String KEY = "One key per intent, reused on every retry (same rules as POST /v1/reservations)";

    @Inject
    TransferService transfers;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Ship units from one location to another, once per Idempotency-Key: on hand at from drops, in transit at to rises")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = TransferRequest.class)))
    @APIResponse(responseCode = "201", description = "Shipped (or the replay of the transfer shipped with this key)",
            headers = {
                    @Header(name = HttpHeaders.LOCATION, description = "/v1/transfers/{id}", schema = @Schema(type = SchemaType.STRING)),
                    @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)) },
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Transfer.class)))
    @APIResponse(responseCode = "404", description = "item-not-found: from has no record of the sku (not stored)")
    @APIResponse(responseCode = "409", description = "insufficient-stock-to-ship: on hand at from would fall below what is held, committed "
            + "and kept as safety stock there (stored and replayed), or idempotency-request-in-progress (with Retry-After)")
    public Response ship(@Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true, description = KEY,
            schema = @Schema(type = SchemaType.STRING,
                    pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        TransferRequest request = json.read(body, TransferRequest.class).requireValid();
        OncePerKey.Reply reply = transfers.ship(tenant.id(), key, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A transfer, with its version as ETag")
    @APIResponse(responseCode = "200", description = "The transfer",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Transfer.class)))
    @APIResponse(responseCode = "404", description = "transfer-not-found")
    public Response get(@PathParam("id") @Parameter(description = "The transfer's id",
            schema = @Schema(type = SchemaType.STRING, format = "uuid")) String id) {
        Transfer found = transfers.find(tenant.id(), parse(id));
        return Response.ok(found).header(HttpHeaders.ETAG, found.etag()).build();
    }

    @POST
    @Path("{id}/receipts")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Receive units of a transfer at its destination, once per Idempotency-Key: in transit to on hand; "
            + "partial receipts allowed")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ReceiptRequest.class)))
    @APIResponse(responseCode = "200", description = "The transfer as this receipt left it (a replay answers the same)",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Transfer.class)))
    @APIResponse(responseCode = "404", description = "transfer-not-found (not stored)")
    @APIResponse(responseCode = "409", description = "over-receipt (more than in transit) or invalid-transfer-state (received in full "
            + "or cancelled), both stored and replayed; or idempotency-request-in-progress (with Retry-After)")
    public Response receive(@PathParam("id") @Parameter(description = "The transfer's id",
            schema = @Schema(type = SchemaType.STRING, format = "uuid")) String id,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true, description = KEY,
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        UUID transfer = parse(id);
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        ReceiptRequest request = json.read(body, ReceiptRequest.class);
        OncePerKey.Reply reply = transfers.receive(tenant.id(), key, transfer, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }

    @POST
    @Path("{id}/cancel")
    @Operation(summary = "Cancel a transfer: what was not received goes back to on hand at from; a cancelled transfer answers as it is")
    @APIResponse(responseCode = "200", description = "The cancelled transfer",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Transfer.class)))
    @APIResponse(responseCode = "404", description = "transfer-not-found")
    @APIResponse(responseCode = "409", description = "invalid-transfer-state: received in full, nothing to return")
    public Response cancel(@PathParam("id") @Parameter(description = "The transfer's id",
            schema = @Schema(type = SchemaType.STRING, format = "uuid")) String id) {
        Transfer cancelled = transfers.cancel(tenant.id(), parse(id), tenant.subject());
        return Response.ok(cancelled).header(HttpHeaders.ETAG, cancelled.etag()).build();
    }

    /** An id that is not a UUID in its canonical form names no transfer: the same 404 as a missing one. */
    private static UUID parse(String id) {
        UUID parsed = dev.stockhold.web.Params.uuid(id);
        if (parsed == null) {
            throw new ProblemException(ProblemType.TRANSFER_NOT_FOUND, "No transfer " + id);
        }
        return parsed;
    }
}
