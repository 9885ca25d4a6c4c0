package dev.stockhold.client;

/** No attempt reached the service (every connection failed before a request was sent), or a read got no answer. */
public final class UnreachableException extends StockholdException {

    UnreachableException(Operation operation, String idempotencyKey, int attempts, Throwable cause) {
        super(operation + ": no answer after " + attempts + " attempt(s): " + cause, idempotencyKey, attempts, cause);
    }
}
