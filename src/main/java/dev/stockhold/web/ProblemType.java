package dev.stockhold.web;

import java.net.URI;

/** Every problem type Stockhold answers with; the URI ends in the contract's slug. */
public enum ProblemType {
    MALFORMED_REQUEST("malformed-request", "Request body is not valid JSON", 400),
    VALIDATION_FAILED("validation-failed", "Request failed validation", 400),
    IDEMPOTENCY_KEY_MISSING("idempotency-key-missing", "Idempotency-Key header is required", 400),
    IDEMPOTENCY_KEY_INVALID("idempotency-key-invalid", "Idempotency-Key header is malformed", 400),
    UNAUTHORIZED("unauthorized", "Authentication required", 401),
    FORBIDDEN("forbidden", "Not allowed", 403),
    NOT_FOUND("not-found", "Resource not found", 404),
    ITEM_NOT_FOUND("item-not-found", "Stock item not found", 404),
    RESERVATION_NOT_FOUND("reservation-not-found", "Reservation not found", 404),
    OUTBOX_EVENT_NOT_FOUND("outbox-event-not-found", "Outbox event not found", 404),
    METHOD_NOT_ALLOWED("method-not-allowed", "Method not allowed", 405),
    NOT_ACCEPTABLE("not-acceptable", "Not acceptable", 406),
    INSUFFICIENT_STOCK("insufficient-stock", "Insufficient stock", 409),
    INVALID_RESERVATION_STATE("invalid-reservation-state", "Reservation is not in a state that allows this", 409),
    HOLD_LIMIT_REACHED("hold-limit-reached", "The hold cannot be extended that far", 409),
    IDEMPOTENCY_REQUEST_IN_PROGRESS("idempotency-request-in-progress", "A request with this Idempotency-Key is in progress", 409),
    PAYLOAD_TOO_LARGE("payload-too-large", "Request body too large", 413),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", "Unsupported media type", 415),
    TOO_MANY_REQUESTS("too-many-requests", "Too many requests in progress for this tenant", 429),
    UNKNOWN_SKU("unknown-sku", "Unknown sku", 422),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency-Key reused with a different request", 422),
    SERVICE_UNAVAILABLE("service-unavailable", "Service temporarily unavailable", 503),
    INTERNAL_ERROR("internal-error", "Internal error", 500);

    public static final String BASE = "https://stockhold.dev/problems/";
    public static final String MEDIA_TYPE = "application/problem+json";

    private final String slug;
    private final String title;
    private final int status;

    ProblemType(String slug, String title, int status) {
        this.slug = slug;
        this.title = title;
        this.status = status;
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

    public URI uri() {
        return URI.create(BASE + slug);
    }
}
