package dev.stockhold.inventory;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponseSchema;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.web.Cursors;
import dev.stockhold.web.StrictJson;

/** The tenant's stock: per sku (v1's free-to-reserve view and v2's totals), per stock record, and the list of records. */
@Path("/v1/items")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "items")
@SecurityScheme(securitySchemeName = "jwt", type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT",
        description = "RS256 JWT with claims tenant_id and groups (reservations, inventory-admin, ops)")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "400",
        description = "validation-failed (sku, location, parameter or body, named in violations), malformed-request")
public class ItemResource {

    private static final String SKU = Sku.FORMAT;
    private static final String LOCATION = Sku.FORMAT + "; default is the location v1 requests use";
    private static final String CHANNEL = "Only the records at this channel's locations (PUT /v1/channels/{channel}), and totals over them";

    @Inject
    CurrentTenant tenant;
    @Inject
    StockService stock;
    @Inject
    StrictJson json;
    @Inject
    Cursors cursors;
    @Inject
    Channels channels;
    @Inject
    SupplyDates supplyDates;

    @PUT
    @Path("{sku}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "v1: set the free-to-reserve quantity of a sku at location default (on hand = available + held)")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SetStockRequest.class)))
    @APIResponseSchema(value = ItemView.class, responseCode = "200", responseDescription = "The sku with its totals and records")
    public ItemView put(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku, byte[] body) {
        Sku.require("sku", sku);
        SetStockRequest request = json.read(body, SetStockRequest.class);
        return stock.setAvailable(tenant.id(), sku, request.available(), Source.of(tenant.subject()));
    }

    @GET
    @Path("{sku}")
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "A sku's stock: totals over its locations (available as in v1) and each location's record")
    @APIResponseSchema(value = ItemView.class, responseCode = "200", responseDescription = "The sku")
    @APIResponse(responseCode = "404", description = "item-not-found")
    @APIResponse(responseCode = "422", description = "unknown-channel")
    public ItemView get(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @QueryParam("channel") @Parameter(description = CHANNEL, schema = @Schema(pattern = Sku.REGEX)) String channel) {
        Sku.require("sku", sku);
        Channel through = channel(channel);
        ItemView item = stock.item(tenant.id(), sku, through);
        return item
                .withAvailableToPromise(supplyDates.of(tenant.id(), sku, item.reservable(), through == null ? null : through.locations()));
    }

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The tenant's stock records, sku then location in byte order, one page at a time (keyset pagination)")
    @APIResponseSchema(value = StockPage.class, responseCode = "200", responseDescription = "One page")
    @APIResponse(responseCode = "422", description = "unknown-channel")
    public StockPage list(
            @QueryParam("sku") @Parameter(
                    description = "Only these skus: repeat the parameter (sku=A-1&sku=B-7), at most 100 times") List<String> skus,
            @QueryParam("location") @Parameter(description = "Only records at this location",
                    schema = @Schema(pattern = Sku.REGEX)) String location,
            @QueryParam("channel") @Parameter(description = CHANNEL, schema = @Schema(pattern = Sku.REGEX)) String channel,
            @QueryParam("availableBelow") @Parameter(description = "Only records whose available is strictly below this",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "0", maximum = "1000000000")) String availableBelow,
            @QueryParam("limit") @Parameter(description = "Items per page, 1 to 200, default 50",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "200", defaultValue = "50")) String limit,
            @QueryParam("cursor") @Parameter(description = "nextCursor of the previous page; only with the same filters",
                    schema = @Schema(type = SchemaType.STRING)) String cursor) {
        return stock.list(StockQuery.of(tenant.id(), skus == null ? List.of() : skus, location, channel(channel), availableBelow, limit,
                cursor, cursors));
    }

    /** The channel a read names, or null; 400 for a malformed name, 422 unknown-channel for one the tenant lacks. */
    private Channel channel(String name) {
        return name == null ? null : channels.require(tenant.id(), Sku.require("channel", name));
    }

    @GET
    @Path("{sku}/stock/{location}")
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "One stock record, with its version as ETag")
    @APIResponse(responseCode = "200", description = "The stock record",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\": send it as If-Match to set on hand",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = StockRecord.class)))
    @APIResponse(responseCode = "404", description = "item-not-found")
    public Response record(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @PathParam("location") @Parameter(description = LOCATION, schema = @Schema(pattern = Sku.REGEX)) String location) {
        StockRecord record = stock.record(tenant.id(), key(sku, location));
        return Response.ok(record).tag(String.valueOf(record.version())).build();
    }

    @GET
    @Path("{sku}/stock/{location}/movements")
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Operation(summary = "The record's movement ledger, newest first: one entry per change of on hand or committed (keyset pagination)")
    @APIResponseSchema(value = Movement.Page.class, responseCode = "200", responseDescription = "One page")
    @APIResponse(responseCode = "400", description = "validation-failed: a parameter or the cursor is not valid (named in violations)")
    @APIResponse(responseCode = "404", description = "item-not-found")
    public Movement.Page movements(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @PathParam("location") @Parameter(description = LOCATION, schema = @Schema(pattern = Sku.REGEX)) String location,
            @QueryParam("from") @Parameter(description = "Changes at or after (RFC 3339)",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) String from,
            @QueryParam("to") @Parameter(description = "Changes before (RFC 3339)",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) String to,
            @QueryParam("kind") @Parameter(description = "Only entries of this kind",
                    schema = @Schema(enumeration = { "opening", "set", "adjust", "confirm", "fulfil", "release", "snapshot",
                            "transfer-out", "in-transit", "transfer-in", "transfer-return", "purchase-receipt" })) String kind,
            @QueryParam("limit") @Parameter(description = "Entries per page, 1 to 200, default 50",
                    schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "200", defaultValue = "50")) String limit,
            @QueryParam("cursor") @Parameter(description = "nextCursor of the previous page; only with the same filters",
                    schema = @Schema(type = SchemaType.STRING)) String cursor) {
        return stock.movements(MovementQuery.of(tenant.id(), key(sku, location), from, to, kind, limit, cursor, cursors));
    }

    @PUT
    @Path("{sku}/stock/{location}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Set on hand (a physical count), creating the record and its location if absent; "
            + "with If-Match, compare-and-set on the version")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SetOnHandRequest.class)))
    @APIResponse(responseCode = "200", description = "The stock record as this set left it",
            headers = @Header(name = HttpHeaders.ETAG, description = "\"<version>\"", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = StockRecord.class)))
    @APIResponse(responseCode = "409", description = "stock-below-held: on hand would be below held; nothing changed")
    @APIResponse(responseCode = "412", description = "precondition-failed: If-Match is not the current version (or the record "
            + "does not exist); nothing changed")
    public Response set(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @PathParam("location") @Parameter(description = LOCATION, schema = @Schema(pattern = Sku.REGEX)) String location,
            @HeaderParam(HttpHeaders.IF_MATCH) @Parameter(in = ParameterIn.HEADER, name = HttpHeaders.IF_MATCH,
                    description = "The ETag of the version this write is based on, e.g. \"4\"; or *",
                    schema = @Schema(type = SchemaType.STRING)) String ifMatch,
            byte[] body) {
        StockKey at = key(sku, location);
        IfMatch precondition = IfMatch.parse(ifMatch);
        SetOnHandRequest request = json.read(body, SetOnHandRequest.class).requireAbsoluteReference();
        StockRecord record = stock.set(tenant.id(), at, request.onHand(), request.safetyStock(), request.lowStockThreshold(), precondition,
                new Source(tenant.subject(), null, null, null, request.reference()));
        return Response.ok(record).tag(String.valueOf(record.version())).build();
    }

    @POST
    @Path("{sku}/stock/{location}/adjustments")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Operation(summary = "Add a delta to on hand, once per Idempotency-Key, creating the record at 0 first if absent")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = AdjustmentRequest.class)))
    @APIResponseSchema(value = StockRecord.class, responseCode = "200",
            responseDescription = "The stock record as this adjustment left it (a replay answers the same)")
    @APIResponse(responseCode = "409", description = "stock-below-held (stored and replayed like a 200), or "
            + "idempotency-request-in-progress (with Retry-After)")
    public Response adjust(@PathParam("sku") @Parameter(description = SKU, schema = @Schema(pattern = Sku.REGEX)) String sku,
            @PathParam("location") @Parameter(description = LOCATION, schema = @Schema(pattern = Sku.REGEX)) String location,
            @Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = true,
                    description = "One key per intent, reused on every retry (same rules as POST /v1/reservations)",
                    schema = @Schema(type = SchemaType.STRING,
                            pattern = IdempotencyKey.PATTERN)) @HeaderParam(IdempotencyKey.HEADER) String idempotencyKey,
            @Context HttpHeaders headers, byte[] body) {
        StockKey at = key(sku, location);
        IdempotencyKey key = IdempotencyKey.parse(headers.getRequestHeader(IdempotencyKey.HEADER));
        AdjustmentRequest request = json.read(body, AdjustmentRequest.class).requireNonZero();
        OncePerKey.Reply reply = stock.adjust(tenant.id(), key, at, request, tenant.subject());
        return reply.response().answer(reply.replayed());
    }

    private static StockKey key(String sku, String location) {
        return new StockKey(Sku.require("sku", sku), Sku.require("location", location));
    }
}
