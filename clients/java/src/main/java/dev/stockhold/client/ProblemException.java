package dev.stockhold.client;

import dev.stockhold.client.model.Problem;

/**
 * A problem answer (RFC 9457), one class per problem slug of the API (in {@link Problems}), each carrying the problem document. The 404s
 * share {@link Problems.NotFound}; an unknown slug (from a newer service) is a plain ProblemException.
 */
public class ProblemException extends StockholdException {

    private final transient Problem problem;

    ProblemException(Problem problem, String key, int attempts) {
        super(problem.status() + " " + slug(problem) + ": " + problem.detail(), key, attempts, null);
        this.problem = problem;
    }

    /** The exception for a problem document: its slug's class. */
    public static ProblemException of(Problem problem, String key, int attempts) {
        return switch (slug(problem)) {
            case "malformed-request" -> new Problems.MalformedRequest(problem, key, attempts);
            case "validation-failed" -> new Problems.ValidationFailed(problem, key, attempts);
            case "idempotency-key-missing" -> new Problems.IdempotencyKeyMissing(problem, key, attempts);
            case "idempotency-key-invalid" -> new Problems.IdempotencyKeyInvalid(problem, key, attempts);
            case "unauthorized" -> new Problems.Unauthorized(problem, key, attempts);
            case "forbidden" -> new Problems.Forbidden(problem, key, attempts);
            case "not-found" -> new Problems.NotFound(problem, key, attempts);
            case "item-not-found" -> new Problems.ItemNotFound(problem, key, attempts);
            case "channel-not-found" -> new Problems.ChannelNotFound(problem, key, attempts);
            case "transfer-not-found" -> new Problems.TransferNotFound(problem, key, attempts);
            case "purchase-order-not-found" -> new Problems.PurchaseOrderNotFound(problem, key, attempts);
            case "kit-not-found" -> new Problems.KitNotFound(problem, key, attempts);
            case "reservation-not-found" -> new Problems.ReservationNotFound(problem, key, attempts);
            case "outbox-event-not-found" -> new Problems.OutboxEventNotFound(problem, key, attempts);
            case "method-not-allowed" -> new Problems.MethodNotAllowed(problem, key, attempts);
            case "not-acceptable" -> new Problems.NotAcceptable(problem, key, attempts);
            case "insufficient-stock" -> new Problems.InsufficientStock(problem, key, attempts);
            case "invalid-reservation-state" -> new Problems.InvalidReservationState(problem, key, attempts);
            case "stock-below-held" -> new Problems.StockBelowHeld(problem, key, attempts);
            case "over-fulfilment" -> new Problems.OverFulfilment(problem, key, attempts);
            case "over-receipt" -> new Problems.OverReceipt(problem, key, attempts);
            case "invalid-transfer-state" -> new Problems.InvalidTransferState(problem, key, attempts);
            case "invalid-purchase-order-state" -> new Problems.InvalidPurchaseOrderState(problem, key, attempts);
            case "insufficient-stock-to-ship" -> new Problems.InsufficientStockToShip(problem, key, attempts);
            case "precondition-failed" -> new Problems.PreconditionFailed(problem, key, attempts);
            case "reservation-cap-exceeded" -> new Problems.ReservationCapExceeded(problem, key, attempts);
            case "hold-limit-reached" -> new Problems.HoldLimitReached(problem, key, attempts);
            case "idempotency-request-in-progress" -> new Problems.RequestInProgress(problem, key, attempts);
            case "request-timeout" -> new Problems.RequestTimeout(problem, key, attempts);
            case "length-required" -> new Problems.LengthRequired(problem, key, attempts);
            case "payload-too-large" -> new Problems.PayloadTooLarge(problem, key, attempts);
            case "unsupported-media-type" -> new Problems.UnsupportedMediaType(problem, key, attempts);
            case "too-many-requests" -> new Problems.TooManyRequests(problem, key, attempts);
            case "unknown-sku" -> new Problems.UnknownSku(problem, key, attempts);
            case "unknown-channel" -> new Problems.UnknownChannel(problem, key, attempts);
            case "idempotency-key-reused" -> new Problems.IdempotencyKeyReused(problem, key, attempts);
            case "service-unavailable" -> new Problems.ServiceUnavailable(problem, key, attempts);
            case "internal-error" -> new Problems.InternalError(problem, key, attempts);
            default -> new ProblemException(problem, key, attempts);
        };
    }

    /** The last segment of the problem's {@code type}, e.g. {@code insufficient-stock}. */
    public static String slug(Problem problem) {
        String type = problem.type() == null ? "" : problem.type();
        return type.substring(type.lastIndexOf('/') + 1);
    }

    /** The problem document as the service sent it. */
    public Problem problem() {
        return problem;
    }

    public int status() {
        return problem.status();
    }
}
