package dev.stockhold;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Stockhold's own settings; every property can be set by env as {@code STOCKHOLD_*}. */
@ConfigMapping(prefix = "stockhold")
public interface StockholdConfig {

    Reservations reservations();

    Idempotency idempotency();

    interface Reservations {
        /** Hold time of a reservation whose request names no {@code ttlSeconds}. */
        @WithDefault("900")
        int defaultTtlSeconds();

        /** How often the expiry job looks for HELD reservations past {@code expiresAt}. */
        @WithDefault("5s")
        Duration expiryInterval();

        /** Reservations expired per transaction; small so row locks are short. */
        @WithDefault("100")
        int expiryBatchSize();
    }

    interface Idempotency {
        /** How long a duplicate waits for the in-flight original before answering 409. */
        @WithDefault("5s")
        Duration inFlightWait();

        /** Keys are kept at least this long; after that a key is a new intent. */
        @WithDefault("24h")
        Duration retention();

        /** How often the purge job deletes keys older than the retention. */
        @WithDefault("1m")
        Duration purgeInterval();

        /** Keys deleted per purge transaction. */
        @WithDefault("500")
        int purgeBatchSize();
    }
}
