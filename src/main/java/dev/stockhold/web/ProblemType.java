package dev.stockhold.web;

import java.net.URI;

/** Every problem type Stockhold answers with; the URI ends in its slug and resolves to a page (ProblemPages). */
public enum ProblemType {
    MALFORMED_REQUEST("malformed-request", "Request body is not valid JSON", 400,
            "The body could not be read as JSON.", "Send a JSON object; nothing was stored."),
    VALIDATION_FAILED("validation-failed", "Request failed validation", 400,
            "A field, header or query parameter breaks a rule; violations names each one.",
            "Fix the named fields and send the request again; nothing was stored."),
    IDEMPOTENCY_KEY_MISSING("idempotency-key-missing", "Idempotency-Key header is required", 400,
            "This request changes state and needs an Idempotency-Key header.",
            "Generate one key per intent (a UUID) and send it on the request and on every retry of it."),
    IDEMPOTENCY_KEY_INVALID("idempotency-key-invalid", "Idempotency-Key header is malformed", 400,
            "The key is neither a quoted string (\"abc\") nor a bare token of visible ASCII, is longer than 255 characters "
                    + "after unquoting, or the header was sent twice.",
            "Send one Idempotency-Key header of 1-255 characters; nothing was stored."),
    UNAUTHORIZED("unauthorized", "Authentication required", 401,
            "No bearer token, or one that is not valid: signature, issuer, expiry or the tenant_id claim.",
            "Get a fresh token from your identity provider."),
    FORBIDDEN("forbidden", "Not allowed", 403,
            "The token is valid but lacks the role this operation needs (reservations, inventory-admin or ops).",
            "Ask for a token with that role."),
    NOT_FOUND("not-found", "Resource not found", 404, "No such path.", "Check the URL against the API reference."),
    ITEM_NOT_FOUND("item-not-found", "Stock item not found", 404,
            "Your tenant has no stock for this sku.", "Set its stock first, or check the sku."),
    CHANNEL_NOT_FOUND("channel-not-found", "Channel not found", 404,
            "Your tenant has no channel of this name.", "Create it with PUT /v1/channels/{channel}, or check the name."),
    TRANSFER_NOT_FOUND("transfer-not-found", "Transfer not found", 404,
            "Your tenant has no transfer with this id.", "Check the id; another tenant's transfers are never visible."),
    PURCHASE_ORDER_NOT_FOUND("purchase-order-not-found", "Purchase order not found", 404,
            "Your tenant has no purchase order with this id.", "Check the id; another tenant's purchase orders are never visible."),
    KIT_NOT_FOUND("kit-not-found", "Kit not found", 404,
            "Your tenant has no kit of this sku.", "Create it with PUT /v1/kits/{sku}, or check the sku."),
    RESERVATION_NOT_FOUND("reservation-not-found", "Reservation not found", 404,
            "Your tenant has no reservation with this id.", "Check the id; another tenant's reservations are never visible."),
    OUTBOX_EVENT_NOT_FOUND("outbox-event-not-found", "Outbox event not found", 404,
            "Your tenant has no dead event with this id.", "List dead events with GET /v1/admin/outbox/dead."),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", 405,
            "This path does not answer this HTTP method.", "Check the method against the API reference."),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", 406,
            "The Accept header asks for a media type this operation cannot produce.", "Accept application/json."),
    INSUFFICIENT_STOCK("insufficient-stock", "Insufficient stock", 409,
            "A line asks for more than is available; skus lists them. Nothing was reserved.",
            "Reserve less, or later. Retrying the same key replays this answer: use a new key for a new attempt."),
    INVALID_RESERVATION_STATE("invalid-reservation-state", "Reservation is not in a state that allows this", 409,
            "The reservation is CONFIRMED, CANCELLED or EXPIRED, or its hold has run out, so this change is not possible.",
            "Read the reservation to see its status."),
    STOCK_BELOW_HELD("stock-below-held", "On hand would fall below what is held", 409,
            "The set or adjustment would leave fewer units on hand than reservations hold (or fewer than zero). Held units "
                    + "are never taken back silently; nothing was changed.",
            "Cancel or let expire the reservations that hold the units first, or change on hand by less."),
    OVER_FULFILMENT("over-fulfilment", "More than is committed", 409,
            "A fulfilment or release names more units of a line than the reservation still has committed there (or a line "
                    + "it does not have). Nothing was changed.",
            "Read the reservation: each line's quantity - fulfilled - released is what is still committed. Retrying the same "
                    + "key replays this answer: use a new key for a new attempt."),
    OVER_RECEIPT("over-receipt", "More than is on its way", 409,
            "The receipt names more units than the transfer still has in transit, or the purchase order still expects. Nothing "
                    + "was received.",
            "Receive at most what is on its way (GET the transfer or purchase order); a shortage is received as it is, then the "
                    + "rest cancelled or closed."),
    INVALID_TRANSFER_STATE("invalid-transfer-state", "Transfer is not in a state that allows this", 409,
            "The transfer was already received in full or cancelled, so nothing is in transit to receive or return.",
            "Read the transfer (GET /v1/transfers/{id}) to see its status."),
    INVALID_PURCHASE_ORDER_STATE("invalid-purchase-order-state", "Purchase order is not open", 409,
            "The purchase order was received in full or closed, so nothing more is expected.",
            "Read the order (GET /v1/purchase-orders/{id}); expect more units with a new order."),
    INSUFFICIENT_STOCK_TO_SHIP("insufficient-stock-to-ship", "Not enough stock at the origin to ship", 409,
            "On hand at the origin would fall below what is held, committed and kept as safety stock there. Nothing was shipped.",
            "Ship fewer units, or free units at the origin first."),
    PRECONDITION_FAILED("precondition-failed", "It has changed since that version", 412,
            "If-Match names a version that is no longer the current version of what the request writes, a stock record "
                    + "or a reservation (or it does not exist): someone else changed it since you read it. Nothing was changed.",
            "Read it again (GET returns its ETag), decide again, and send the new version in If-Match."),
    RESERVATION_CAP_EXCEEDED("reservation-cap-exceeded", "A cap of the tenant's settings refuses this reservation", 409,
            "A line asks for more units than the tenant's maxLineQuantity (skus lists them), or the reference already has "
                    + "maxHeldPerReference HELD reservations. Nothing was reserved.",
            "Reserve less, or confirm, cancel or let expire the reference's other reservations first. GET /v1/settings shows "
                    + "the caps. Retrying the same key replays this answer: use a new key for a new attempt."),
    HOLD_LIMIT_REACHED("hold-limit-reached", "The hold cannot be extended that far", 409,
            "The new expiry would pass the reservation's creation plus the maximum hold. Nothing was changed.",
            "Extend by less, or confirm the reservation."),
    IDEMPOTENCY_REQUEST_IN_PROGRESS("idempotency-request-in-progress", "A request with this Idempotency-Key is in progress", 409,
            "The first request with this key has not finished yet.",
            "Retry after Retry-After seconds with the same key: you will get its outcome."),
    REQUEST_TIMEOUT("request-timeout", "Request body not received in time", 408,
            "The request body did not arrive whole within the time allowed. Nothing was changed.",
            "Send the whole body at once; retry with the same Idempotency-Key."),
    LENGTH_REQUIRED("length-required", "Content-Length required", 411,
            "An HTTP/2 request body was sent without a Content-Length header.",
            "Send the Content-Length header with the body (HTTP/2), or use HTTP/1.1 chunked transfer."),
    PAYLOAD_TOO_LARGE("payload-too-large", "Request body too large", 413,
            "The body is over the size limit.", "Send a smaller body; a cart of 100 lines fits easily."),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", 415,
            "The body is not sent as application/json.", "Set Content-Type: application/json."),
    TOO_MANY_REQUESTS("too-many-requests", "Too many requests in progress for this tenant", 429,
            "Your tenant has too many requests in progress on this replica.",
            "Retry after Retry-After seconds, with the same Idempotency-Key where there is one."),
    UNKNOWN_SKU("unknown-sku", "Unknown sku", 422,
            "A line names a sku your tenant has no stock record for; skus lists them. Nothing was reserved.",
            "Set the stock of the sku first, or fix the line."),
    UNKNOWN_CHANNEL("unknown-channel", "Unknown channel", 422,
            "The request names a channel your tenant has not created. Nothing was reserved or read through it.",
            "Create the channel with PUT /v1/channels/{channel}, or fix the name."),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency-Key reused with a different request", 422,
            "This key was already used for a request with another body or on another endpoint. Nothing was changed.",
            "Use a new key for a new intent; reuse a key only to retry the very same request."),
    SERVICE_UNAVAILABLE("service-unavailable", "Service temporarily unavailable", 503,
            "The database was unavailable or busy. Nothing was changed, unless detail says the outcome is unknown "
                    + "(the connection died during the commit).",
            "Retry after Retry-After seconds with the same Idempotency-Key: the retry returns the truth."),
    INTERNAL_ERROR("internal-error", "Internal error", 500,
            "An unexpected error. Nothing was committed.", "Retry with the same Idempotency-Key; report it if it persists.");

    public static final String MEDIA_TYPE = "application/problem+json";
    /** The problem pages' base (stockhold.problems.base-uri), set at startup by ProblemPages. */
    private static volatile String base = "/problems/";

    private final String slug;
    private final String title;
    private final int status;
    private final String meaning;
    private final String action;

    ProblemType(String slug, String title, int status, String meaning, String action) {
        this.slug = slug;
        this.title = title;
        this.status = status;
        this.meaning = meaning;
        this.action = action;
    }

    static void useBase(String uri) {
        base = uri.endsWith("/") ? uri : uri + "/";
    }

    public static java.util.Optional<ProblemType> ofSlug(String slug) {
        return java.util.Arrays.stream(values()).filter(t -> t.slug.equals(slug)).findFirst();
    }

    public String meaning() {
        return meaning;
    }

    public String action() {
        return action;
    }

    public String slug() {
        return slug;
    }

    public String title() {
        return title;
    }

    public int status() {
        return status;
    }

    /** {@code stockhold.problems.base-uri} + slug: by default the relative reference /problems/{slug} (RFC 9457 3.1.1). */
    public URI uri() {
        return URI.create(base + slug);
    }
}
