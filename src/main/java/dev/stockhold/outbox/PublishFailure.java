package dev.stockhold.outbox;

/**
 * Why the broker did not confirm one event (a nack of that message, unroutable, a payload it cannot take). Each
 * counts one attempt; transient ones are retried with backoff, permanent ones (the event can never be delivered as it
 * is) go to DEAD at once. A broker that cannot be reached is not an event's failure: see {@link PublishOutcome}.
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
