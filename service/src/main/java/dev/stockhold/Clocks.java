package dev.stockhold;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The wall clock the service reads, one bean: tests that need to move time replace it instead of sleeping. */
public class Clocks {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
