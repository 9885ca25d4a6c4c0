package dev.stockhold.support;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waits for an asynchronous outcome (the relay, the broker) with a bound; fails with a message if it never comes. */
public final class Eventually {

    private Eventually() {
    }

    public static void await(Duration bound, String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(bound);
        while (Instant.now().isBefore(deadline)) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
        if (!condition.getAsBoolean()) {
            throw new AssertionError("timed out after " + bound + " waiting for " + what);
        }
    }
}
