package dev.stockhold.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The service's clock in tests: the system time plus an offset that only grows. A test that needs a hold to run out
 * moves time forward instead of sleeping; the database's own now() is not moved, so only decisions the service makes
 * with its clock (expiry, extends, confirms past the hold) see it.
 */
public final class MovableClock extends Clock {

    private static final AtomicLong OFFSET_NANOS = new AtomicLong();

    /** Moves the service's time forward. */
    public static void advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("time only moves forward");
        }
        OFFSET_NANOS.addAndGet(by.toNanos());
    }

    /** The service's time now. */
    public static Instant now() {
        return Instant.now().plusNanos(OFFSET_NANOS.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now();
    }

    /** Replaces the service's clock in every {@code @QuarkusTest}. */
    public static class Producer {

        @Produces
        @Singleton
        @Alternative
        @Priority(1)
        Clock clock() {
            return new MovableClock();
        }
    }
}
