package dev.stockhold.client;

/** Every failure the client reports: a problem answer, an outcome it could not learn, or a service it could not reach. */
public abstract class StockholdException extends RuntimeException {

    private final String idempotencyKey;
    private final int attempts;

    StockholdException(String message, String idempotencyKey, int attempts, Throwable cause) {
        super(message, cause);
        this.idempotencyKey = idempotencyKey;
        this.attempts = attempts;
    }

    /** The key the call was sent with (the one to send again to settle it), or null for a call without one. */
    public String idempotencyKey() {
        return idempotencyKey;
    }

    /** How many attempts the call made. */
    public int attempts() {
        return attempts;
    }
}
