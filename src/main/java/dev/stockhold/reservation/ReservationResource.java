package dev.stockhold.reservation;

import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.inventory.IfMatch;
import dev.stockhold.inventory.Sku;
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.Cursors;
import dev.stockhold.web.StrictJson;
import dev.stockhold.web.ValidationFailedException;

/** The reservation API: POST, GET and the list of /v1/reservations, and confirm, cancel and extend (docs/api.md). */
@Path("/v1/reservations")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.RESERVATIONS)
@Tag(name = "reservations")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "503",
        description = "service-unavailable: database unavailable or busy, or (POST) the replica at its concurrency limit; nothing changed unless detail says the outcome is unknown; retry after Retry-After",
        headers = @Header(name = HttpHeaders.RETRY_AFTER, schema = @Schema(type = SchemaType.INTEGER)))
public class ReservationResource {

    public static final String REPLAYED_HEADER = StoredResponse.REPLAYED_HEADER;

    @Inject
    ReservingService reserving;
    @Inject
    ReservationLifecycle lifecycle;
    @Inject
    Settlements settlements;
    @Inject
    Edits edits;
    @Inject
    CurrentTenant tenant;
    @Inject
    StrictJson json;
    @Inject
    Cursors cursors;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Hold stock for every line, all or nothing, once per Idempotency-Key")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ReservationRequest.class)))
    @APIResponse(responseCode = "201", description = "Reserved (or the replay of a reservation made with this key)",
            headers = @Header(name = HttpHeaders.LOCATION, description = "/v1/reservations/{id}",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReservationView.class)))
    @APIResponse(responseCode = "409", description = "insufficient-stock or reservation-cap-exceeded (stored and replayed like a "
            + "201), or idempotency-request-in-progress (with Retry-After)")
    @APIResponse(responseCode = "422", description = "unknown-sku or unknown-channel (stored and replayed), or idempotency-key-reused")
    public Response create(
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true,
                    description = "One key per intent, reused on every retry: an RFC 8941 string (\"8e03978e-40d5\", "
                            + "with \\\" and \\\\ escapes) or a bare token of visible ASCII; \"abc\" and abc are the same key, "
                            + "1-255 characters after unquoting. One header field only.",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        String tenantId = tenant.id();
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        ReservationRequest request = json.read(body, ReservationRequest.class).requireDistinctSkus().requireValidMetadata()
                .requireBackorderAllocation();
        ReservationReply reply = reserving.reserve(tenantId, key, request);
        return reply.response().answer(reply.replayed());
    }

    @GET
    @Transactional(Transactional.TxType.SUPPORTS)
    @Operation(summary = "The tenant's reservations, newest first, filtered, one page at a time (keyset pagination)")
    @APIResponseSchema(value = ReservationList.class, responseCode = "200", responseDescription = "One page")
    @APIResponse(responseCode = "400", description = "validation-failed: a parameter or the cursor is not valid (named in violations)")
    public ReservationList list(
            @QueryParam("status") @Parameter(description = "Only reservations in this status",
                    schema = @Schema(implementation = ReservationStatus.class)) String status,
            @QueryParam("sku") @Parameter(description = "Only reservations with a line of this sku",
                    schema = @Schema(pattern = Sku.REGEX)) String sku,
            @QueryParam("reference") @Parameter(description = "Only reservations with this reference",
                    schema = @Schema(minLength = 1, maxLength = 128)) String reference,
            @QueryParam("idempotencyKey") @Parameter(description = "Only the reservation whose stored outcome this Idempotency-Key "
                    + "holds (the key's value, without the quotes of its header form), while the key is retained",
                    schema = @Schema(minLength = 1, maxLength = 255)) String idempotencyKey,
            @QueryParam("createdFrom") @Parameter(description = "Created at or after (RFC 3339)",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) String createdFrom,
            @QueryParam("createdTo") @Parameter(description = "Created before (RFC 3339)",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) String createdTo,
            @QueryParam("limit") @Parameter(description = "Items per page, 1 to 200, default 50",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "200", defaultValue = "50")) String limit,
            @QueryParam("cursor") @Parameter(description = "nextCursor of the previous page; only with the same filters",
                    schema = @Schema(type = SchemaType.STRING)) String cursor) {
        return lifecycle.list(
                ReservationQuery.of(tenant.id(), status, sku, reference, idempotencyKey, createdFrom, createdTo, limit, cursor, cursors));
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Read a reservation with its current status and version (ETag)")
    @APIResponse(responseCode = "200", description = "The reservation",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\": rises on every change; send it as If-Match to PATCH",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReservationView.class)))
    @APIResponse(responseCode = "404", description = "reservation-not-found")
    public Response get(@PathParam("id") String id) {
        ReservationLifecycle.Tagged tagged = lifecycle.read(tenant.id(), parse(id));
        return Response.ok(tagged.view()).header(HttpHeaders.ETAG, tagged.etag()).build();
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace the lines of a HELD reservation read at the version in If-Match, once per Idempotency-Key: "
            + "rises held all or nothing, falls released, expiresAt unchanged")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ReservationEdit.class)))
    @APIResponse(responseCode = "200",
            description = "The reservation with its new lines (or the replay of the answer stored with this key)",
            headers = @Header(name = HttpHeaders.ETAG, description = "The new version", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReservationView.class)))
    @APIResponse(responseCode = "400",
            description = "malformed-request, validation-failed (also a missing If-Match or If-Match: *), idempotency-key-missing, idempotency-key-invalid")
    @APIResponse(responseCode = "404", description = "reservation-not-found (not stored)")
    @APIResponse(responseCode = "409", description = "invalid-reservation-state (not HELD, or past expiresAt), insufficient-stock "
            + "(a rise the records do not cover; nothing changed) or reservation-cap-exceeded (a line over maxLineQuantity), all "
            + "stored and replayed; or idempotency-request-in-progress")
    @APIResponse(responseCode = "412",
            description = "precondition-failed: the reservation changed since that version (stored and replayed)")
    @APIResponse(responseCode = "422", description = "unknown-sku or unknown-channel (stored and replayed), or idempotency-key-reused")
    public Response edit(@PathParam("id") String id,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true, description = "One key per intent",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Parameter(in = ParameterIn.HEADER, name = HttpHeaders.IF_MATCH, required = true,
                    description = "The ETag of the version this edit is based on, e.g. \"3\"",
                    schema = @Schema(type = SchemaType.STRING)) @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @Context HttpHeaders headers, byte[] body) {
        String tenantId = tenant.id();
        UUID reservation = parse(id);
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        IfMatch precondition = IfMatch.parse(ifMatch);
        if (precondition == null || precondition.any()) {
            // an edit replaces the lines the client read: it names that version; "*" (any version) would edit blind
            throw new ValidationFailedException("If-Match",
                    "is required and names the version read: its ETag (GET /v1/reservations/{id}), not *");
        }
        ReservationEdit edit = json.read(body, ReservationEdit.class).requireDistinctSkus();
        OncePerKey.Reply reply = edits.edit(tenantId, key, reservation, precondition, edit);
        return reply.response().answer(reply.replayed());
    }

    @POST
    @Path("{id}/confirm")
    @Operation(
            summary = "HELD -> CONFIRMED (sold, or with deferred fulfilment committed); repeated confirms answer 200 without a new event")
    @APIResponseSchema(value = ReservationView.class, responseCode = "200",
            responseDescription = "The reservation, now CONFIRMED (or, deferred, as fulfilments left it)")
    @APIResponse(responseCode = "404", description = "reservation-not-found")
    @APIResponse(responseCode = "409", description = "invalid-reservation-state: CANCELLED, EXPIRED, or HELD past expiresAt")
    public ReservationView confirm(@PathParam("id") String id) {
        return lifecycle.confirm(tenant.id(), parse(id), tenant.subject());
    }

    @POST
    @Path("{id}/cancel")
    @Operation(summary = "HELD -> CANCELLED and the stock returns; repeated cancels answer 200 without a new event")
    @APIResponseSchema(value = ReservationView.class, responseCode = "200", responseDescription = "The reservation, now CANCELLED")
    @APIResponse(responseCode = "404", description = "reservation-not-found")
    @APIResponse(responseCode = "409", description = "invalid-reservation-state: CONFIRMED or EXPIRED")
    public ReservationView cancel(@PathParam("id") String id) {
        return lifecycle.cancel(tenant.id(), parse(id));
    }

    @POST
    @Path("{id}/extend")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Hold a HELD reservation until now + ttlSeconds (longer or shorter), with one extended event")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ExtendRequest.class)))
    @APIResponseSchema(value = ReservationView.class, responseCode = "200", responseDescription = "The reservation with its new expiresAt")
    @APIResponse(responseCode = "400", description = "malformed-request or validation-failed: ttlSeconds is not an integer from 1 to 86400")
    @APIResponse(responseCode = "404", description = "reservation-not-found")
    @APIResponse(responseCode = "409", description = "invalid-reservation-state (not HELD, or past expiresAt), or "
            + "hold-limit-reached (past createdAt + the maximum hold; nothing changes)")
    public ReservationView extend(@PathParam("id") String id, byte[] body) {
        UUID reservation = parse(id);
        ExtendRequest request = json.read(body, ExtendRequest.class);
        return lifecycle.extend(tenant.id(), reservation, request.ttlSeconds());
    }

    @POST
    @Path("{id}/fulfilments")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Committed units leave their locations (deferred fulfilment): committed and on hand drop, once per Idempotency-Key")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SettlementRequest.class)))
    @APIResponseSchema(value = ReservationView.class, responseCode = "200",
            responseDescription = "The reservation as this fulfilment left it (or the replay of the answer stored with this key)")
    @APIResponse(responseCode = "404", description = "reservation-not-found (not stored)")
    @APIResponse(responseCode = "409", description = "over-fulfilment or invalid-reservation-state (stored and replayed), or "
            + "idempotency-request-in-progress (with Retry-After)")
    public Response fulfil(@PathParam("id") String id,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true, description = "One key per intent",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        return settle(id, headers, body, SettlementRequest.Settlement.FULFIL);
    }

    @POST
    @Path("{id}/release")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Committed units that will not be fulfilled become available again (deferred fulfilment), once per Idempotency-Key")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SettlementRequest.class)))
    @APIResponseSchema(value = ReservationView.class, responseCode = "200",
            responseDescription = "The reservation as this release left it (or the replay of the answer stored with this key)")
    @APIResponse(responseCode = "404", description = "reservation-not-found (not stored)")
    @APIResponse(responseCode = "409", description = "over-fulfilment or invalid-reservation-state (stored and replayed), or "
            + "idempotency-request-in-progress (with Retry-After)")
    public Response release(@PathParam("id") String id,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true, description = "One key per intent",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        return settle(id, headers, body, SettlementRequest.Settlement.RELEASE);
    }

    private Response settle(String id, HttpHeaders headers, byte[] body, SettlementRequest.Settlement kind) {
        String tenantId = tenant.id();
        UUID reservation = parse(id);
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        SettlementRequest request = json.read(body, SettlementRequest.class).requireDistinctLines();
        OncePerKey.Reply reply = settlements.settle(tenantId, key, reservation, kind, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }

    /** A malformed id names no reservation: the same 404 as a missing one. */
    private static UUID parse(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new ReservationNotFoundException(id);
        }
    }
}
