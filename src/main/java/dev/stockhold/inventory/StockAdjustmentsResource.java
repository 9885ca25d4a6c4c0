package dev.stockhold.inventory;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
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

/** POST /v1/stock/adjustments: many records' deltas at once, all or nothing (docs/api.md). */
@Path("/v1/stock/adjustments")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.INVENTORY_ADMIN)
@Tag(name = "items")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "400", description = "validation-failed (named in violations), malformed-request, idempotency-key-missing, "
        + "idempotency-key-invalid")
public class StockAdjustmentsResource {

    @Inject
    StockService stock;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Add deltas to on hand of up to 500 records, all or nothing, once per Idempotency-Key")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = BatchAdjustmentRequest.class)))
    @APIResponseSchema(value = StockPage.class, responseCode = "200",
            responseDescription = "The records as this batch left them, sku then location (a replay answers the same)")
    @APIResponse(responseCode = "409", description = "stock-below-held: a record would fall below held and committed, nothing "
            + "changed (stored and replayed like a 200), or idempotency-request-in-progress (with Retry-After)")
    public Response adjustAll(
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true,
                    description = "One key per intent, reused on every retry (same rules as POST /v1/reservations)",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        BatchAdjustmentRequest request = json.read(body, BatchAdjustmentRequest.class).requireValid();
        OncePerKey.Reply reply = stock.adjustAll(tenant.id(), key, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }
}
