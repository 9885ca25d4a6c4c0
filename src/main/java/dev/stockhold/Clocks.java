package dev.stockhold;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The wall clock the service reads, one bean: tests that need to move time replace it instead of sleeping. Every time
 * the service stores or compares is read through {@link #now(Clock)}: one precision, milliseconds, the precision of
 * the answers' timestamps.
 */
public class Clocks {

    /** The clock's instant in the service's one precision. */
    public static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
