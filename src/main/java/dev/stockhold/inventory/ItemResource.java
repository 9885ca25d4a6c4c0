package dev.stockhold.inventory;

import jakarta.annotation.security.RolesAllowed;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.security.CurrentTenant;
import dev.stockhold.security.Roles;
import dev.stockhold.security.TenantLimited;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.StrictJson;

/** PUT/GET /v1/items/{sku}: the tenant's free-to-reserve stock. */
@Path("/v1/items/{sku}")
@Produces(MediaType.APPLICATION_JSON)
@TenantLimited
@Tag(name = "items")
@SecurityScheme(securitySchemeName = "jwt", type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT",
        description = "RS256 JWT with claims tenant_id and groups (reservations, inventory-admin, ops)")
@SecurityRequirement(name = "jwt")
@APIResponse(responseCode = "400", description = "validation-failed (sku format or body), malformed-request",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "429", description = "too-many-requests: the tenant is at its concurrency limit (Retry-After)",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "401", description = "unauthorized: no, invalid or expired token, or no tenant_id",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
@APIResponse(responseCode = "403", description = "forbidden: the token lacks the role",
        content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
public class ItemResource {

    private final CurrentTenant tenant;
    private final StockLedger ledger;
    private final StockItemRepository items;
    private final StrictJson json;

    ItemResource(CurrentTenant tenant, StockLedger ledger, StockItemRepository items, StrictJson json) {
        this.tenant = tenant;
        this.ledger = ledger;
        this.items = items;
        this.json = json;
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.INVENTORY_ADMIN)
    @Transactional
    @Operation(summary = "Set the free-to-reserve quantity of a sku, creating the item if absent")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SetStockRequest.class)))
    @APIResponse(responseCode = "200", description = "The item as stored",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ItemView.class)))
    @APIResponse(responseCode = "413", description = "payload-too-large",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "415", description = "unsupported-media-type",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public ItemView put(@PathParam("sku") @Parameter(description = "1-64 characters of [A-Za-z0-9._:-]",
            schema = @Schema(pattern = Sku.REGEX)) String sku, byte[] body) {
        Sku.require("sku", sku);
        SetStockRequest request = json.read(body, SetStockRequest.class);
        ledger.set(tenant.id(), sku, request.available());
        return new ItemView(sku, request.available());
    }

    @GET
    @RolesAllowed({ Roles.INVENTORY_ADMIN, Roles.RESERVATIONS })
    @Transactional(Transactional.TxType.SUPPORTS)
    @Operation(summary = "Read the free-to-reserve quantity of a sku")
    @APIResponse(responseCode = "200", description = "The item",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ItemView.class)))
    @APIResponse(responseCode = "404", description = "item-not-found",
            content = @Content(mediaType = ProblemType.MEDIA_TYPE, schema = @Schema(implementation = Problem.class)))
    public ItemView get(@PathParam("sku") @Parameter(description = "1-64 characters of [A-Za-z0-9._:-]",
            schema = @Schema(pattern = Sku.REGEX)) String sku) {
        Sku.require("sku", sku);
        return items.find(tenant.id(), sku)
                .map(item -> new ItemView(item.sku, item.available))
                .orElseThrow(() -> new ItemNotFoundException(sku));
    }
}
