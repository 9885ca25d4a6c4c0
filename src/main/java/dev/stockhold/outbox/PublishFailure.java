package dev.stockhold.outbox;

/**
 * Why one event was not confirmed. Transient failures are retried with backoff; permanent ones (the event can never
 * be delivered as it is) go to DEAD at once.
 */
public record PublishFailure(String reason, String message, boolean permanent) {

    public static PublishFailure transientFailure(String reason, String message) {
        return new PublishFailure(reason, message, false);
    }

    public static PublishFailure permanent(String reason, String message) {
        return new PublishFailure(reason, message, true);
    }

    public String describe() {
        return reason + ": " + message;
    }
}
