package dev.stockhold.client;

import java.util.List;

import dev.stockhold.client.model.Problem;
import dev.stockhold.client.model.Violation;

/** One exception per problem slug of the API; {@link ProblemException#of} picks the class for a problem document. */
public final class Problems {

    private Problems() {
    }

    /**
     * 409 insufficient-stock: a line is short everywhere it may be served. {@link #skus()} names the short skus;
     * {@link #shortfall()} is each short line as the client read it right after the refusal (empty when the read failed,
     * or for a refusal of another call than a reservation).
     */
    public static final class InsufficientStock extends ProblemException {
        private volatile List<Shortfall> shortfall = List.of();

        InsufficientStock(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }

        public List<String> skus() {
            return problem().skus() == null ? List.of() : problem().skus();
        }

        public List<Shortfall> shortfall() {
            return shortfall;
        }

        InsufficientStock explain(List<Shortfall> lines) {
            this.shortfall = List.copyOf(lines);
            return this;
        }
    }

    /** 400 malformed-request: The body is not JSON. */
    public static final class MalformedRequest extends ProblemException {
        MalformedRequest(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 400 validation-failed: A field breaks the rules; violations() names it. */
    public static final class ValidationFailed extends ProblemException {
        ValidationFailed(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }

        /** The offending fields and what is wrong with each. */
        public List<Violation> violations() {
            return problem().violations() == null ? List.of() : problem().violations();
        }
    }

    /** 400 idempotency-key-missing: The operation needs an Idempotency-Key. */
    public static final class IdempotencyKeyMissing extends ProblemException {
        IdempotencyKeyMissing(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 400 idempotency-key-invalid: The Idempotency-Key is malformed. */
    public static final class IdempotencyKeyInvalid extends ProblemException {
        IdempotencyKeyInvalid(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 401 unauthorized: No valid token. */
    public static final class Unauthorized extends ProblemException {
        Unauthorized(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 403 forbidden: The token lacks the role. */
    public static final class Forbidden extends ProblemException {
        Forbidden(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 404 not-found: No such path. */
    public static class NotFound extends ProblemException {
        NotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 404 for each kind of resource: no such one, or another tenant's. */
    public static final class ItemNotFound extends NotFound {
        ItemNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class ChannelNotFound extends NotFound {
        ChannelNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class TransferNotFound extends NotFound {
        TransferNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class PurchaseOrderNotFound extends NotFound {
        PurchaseOrderNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class KitNotFound extends NotFound {
        KitNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class ReservationNotFound extends NotFound {
        ReservationNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class OutboxEventNotFound extends NotFound {
        OutboxEventNotFound(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 405, 406, 408, 411, 413, 415: the request's framing, method or media type is refused; see the detail. */
    public static final class MethodNotAllowed extends ProblemException {
        MethodNotAllowed(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class NotAcceptable extends ProblemException {
        NotAcceptable(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 invalid-reservation-state: The reservation's state does not allow this. */
    public static final class InvalidReservationState extends ProblemException {
        InvalidReservationState(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 stock-below-held: On hand would fall below what is held or committed. */
    public static final class StockBelowHeld extends ProblemException {
        StockBelowHeld(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 over-fulfilment: More than is committed or held. */
    public static final class OverFulfilment extends ProblemException {
        OverFulfilment(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 over-receipt: More than is on its way. */
    public static final class OverReceipt extends ProblemException {
        OverReceipt(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 invalid-transfer-state: The transfer's state does not allow this. */
    public static final class InvalidTransferState extends ProblemException {
        InvalidTransferState(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 invalid-purchase-order-state: The purchase order is not open. */
    public static final class InvalidPurchaseOrderState extends ProblemException {
        InvalidPurchaseOrderState(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 insufficient-stock-to-ship: Not enough at the origin to ship. */
    public static final class InsufficientStockToShip extends ProblemException {
        InsufficientStockToShip(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 412 precondition-failed: The resource changed since the version named in If-Match. */
    public static final class PreconditionFailed extends ProblemException {
        PreconditionFailed(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 reservation-cap-exceeded: A cap of the tenant's settings refuses the reservation. */
    public static final class ReservationCapExceeded extends ProblemException {
        ReservationCapExceeded(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 hold-limit-reached: The hold cannot be extended that far. */
    public static final class HoldLimitReached extends ProblemException {
        HoldLimitReached(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 409 idempotency-request-in-progress: The first request with this key is still running. */
    public static final class RequestInProgress extends ProblemException {
        RequestInProgress(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class RequestTimeout extends ProblemException {
        RequestTimeout(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class LengthRequired extends ProblemException {
        LengthRequired(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class PayloadTooLarge extends ProblemException {
        PayloadTooLarge(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    public static final class UnsupportedMediaType extends ProblemException {
        UnsupportedMediaType(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 429 too-many-requests: The tenant's share of the replica is in use. */
    public static final class TooManyRequests extends ProblemException {
        TooManyRequests(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 422 unknown-sku: A sku (or a sku at a named location) is unknown. */
    public static final class UnknownSku extends ProblemException {
        UnknownSku(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }

        public List<String> skus() {
            return problem().skus() == null ? List.of() : problem().skus();
        }
    }

    /** 422 unknown-channel: The channel is unknown. */
    public static final class UnknownChannel extends ProblemException {
        UnknownChannel(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 422 idempotency-key-reused: The key was used for another request. */
    public static final class IdempotencyKeyReused extends ProblemException {
        IdempotencyKeyReused(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 503 service-unavailable: The service could not serve it now, or cannot tell whether a commit happened. */
    public static final class ServiceUnavailable extends ProblemException {
        ServiceUnavailable(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }

    /** 500 internal-error: An error of the service. */
    public static final class InternalError extends ProblemException {
        InternalError(Problem problem, String key, int attempts) {
            super(problem, key, attempts);
        }
    }
}
