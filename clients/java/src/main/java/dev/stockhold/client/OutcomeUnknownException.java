package dev.stockhold.client;

/**
 * The call's deadline, attempts or retry budget ran out while an attempt may have taken effect: an answer was lost
 * after the request was sent, or the service said it could not tell (503, 409 in progress). For a call with an
 * Idempotency-Key, sending it again with {@link #idempotencyKey()} settles it: the stored outcome if it happened, the
 * effect once if it did not. For an operation without a key, read the resource to learn what happened.
 */
public final class OutcomeUnknownException extends StockholdException {

    private final Operation operation;

    OutcomeUnknownException(Operation operation, String idempotencyKey, int attempts, Throwable cause) {
        super(operation + ": the outcome is unknown after " + attempts + " attempt(s)"
                + (idempotencyKey == null ? "; read the resource to learn it" : "; send it again with Idempotency-Key " + idempotencyKey + " to settle it"),
                idempotencyKey, attempts, cause);
        this.operation = operation;
    }

    public Operation operation() {
        return operation;
    }
}
