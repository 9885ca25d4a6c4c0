package dev.stockhold;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Stockhold's own settings; every property can be set by env as {@code STOCKHOLD_*}. */
@ConfigMapping(prefix = "stockhold")
public interface StockholdConfig {

    /** Published in this repository: a cursor MAC key nobody may rely on; the prod profile refuses it. Dev and tests only. */
    String DEV_CURSOR_SECRET = "DEV-ONLY-cursor-secret-published-in-the-repository";

    Reservations reservations();
    Idempotency idempotency();
    Relay relay();
    Outbox outbox();
    Audit audit();
    LimitsConfig limits();
    Problems problems();
    Events events();
    Security security();
    ConsoleConfig console();

    /**
     * The {@code version} tag on every metric, so a canary can be compared with the stable version (the pod label
     * {@code app.kubernetes.io/version}); by default the build's version.
     */
    @WithDefault("${quarkus.application.version:unknown}")
    String version();

    interface Reservations {
        /** Hold time of a reservation whose request names no {@code ttlSeconds}. */
        @WithDefault("900")
        int defaultTtlSeconds();

        /**
         * Longest a reservation may be held, counted from its creation: an extend that would take {@code expiresAt}
         * past {@code createdAt} plus this is refused (409 hold-limit-reached), not clamped.
         */
        @WithDefault("24h")
        Duration maxHold();

        /** How often the expiry job looks for HELD reservations past {@code expiresAt} (and returns their stock). */
        @WithDefault("5s")
        Duration expiryInterval();

        /** Reservations expired per transaction; small so row locks are short. */
        @WithDefault("100")
        int expiryBatchSize();

        /**
         * Most single-line reservations of one sku written in one transaction, with one decrement of their sum, when they
         * arrive while another one of that sku is being written (a hot sku). 1 turns grouping off.
         */
        @WithDefault("32")
        int hotSkuGroupSize();

        /**
         * How long a start runs the reservation path on throwaway rows (rolled back) before it reports ready, so its
         * first requests do not wait for the JIT compiler and cold connections. 0 turns it off.
         */
        @WithDefault("2s")
        Duration warmUp();
    }

    interface Idempotency {
        /** How long a duplicate waits for its in-flight original before answering 409 idempotency-request-in-progress. */
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

    interface Relay {
        /** Where events go: {@code rabbitmq}, {@code kafka} or {@code log}. Dev mode without RABBITMQ_HOST logs them. */
        @WithDefault("rabbitmq")
        Target target();

        /** Run the relay in this process. Off only for tests that drive it by hand. */
        @WithDefault("true")
        boolean enabled();

        /**
         * After a nudge, how long the relay lets more commits accumulate before it claims: one claim and one mark
         * then carry several events instead of one. Adds at most this much to the publish lag.
         */
        @WithDefault("2ms")
        Duration coalesce();

        /**
         * How long the relay may hold confirmed events before it marks them PUBLISHED, so that one statement marks the
         * confirms of several publishes. The relay marks sooner when a batch's worth is waiting, before it claims,
         * and when it stops; a replica that dies in between publishes those events again after their lease (at least
         * once). 0 marks after every publish.
         */
        @WithDefault("50ms")
        Duration markDelay();

        /** How often the relay looks for rows written by other replicas or before a restart. */
        @WithDefault("1s")
        Duration pollInterval();

        /**
         * Events claimed per batch: published with one wait for confirms and marked in one round trip, while the next
         * batch is claimed.
         */
        @WithDefault("500")
        int batchSize();

        /** How long a claimed batch belongs to this relay; a relay that died loses its rows after this. */
        @WithDefault("30s")
        Duration lease();

        /** How long to wait for the broker to confirm a batch; a batch never takes longer than this to publish. */
        @WithDefault("10s")
        Duration publishTimeout();

        /** How often expired leases are returned to pending. */
        @WithDefault("10s")
        Duration leaseSweepInterval();

        /**
         * While the broker is unreachable the relay is paused (no attempt is charged to any event) and probes it: first
         * after this delay, then doubling up to {@link #brokerProbeMax()}.
         */
        @WithDefault("100ms")
        Duration brokerProbeInitial();

        /** Longest delay between two probes of an unreachable broker: events flow again at most this long after it is back. */
        @WithDefault("2s")
        Duration brokerProbeMax();

        /** Dead events requeued per transaction by the bulk requeue. */
        @WithDefault("1000")
        int requeueBatchSize();

        /** Kafka topics, when the target is kafka. */
        Kafka kafka();

        /** The Kafka topics stockhold.reservations and stockhold.stock. */
        interface Kafka {
            /**
             * Create the topics at startup when they are absent (needs CREATE on the cluster or the topics); a topic is
             * never left to the broker's auto-creation and its defaults.
             */
            @WithDefault("true")
            boolean createTopics();

            /**
             * Partitions of a topic Stockhold creates. A topic that exists with fewer is reported in the health details
             * and the log, not changed: adding partitions would move keys and break their order.
             */
            @WithDefault("6")
            int partitions();

            /**
             * Replication factor of a topic Stockhold creates; -1 takes the broker's {@code default.replication.factor}
             * (3 on a production cluster).
             */
            @WithDefault("-1")
            short replicationFactor();
        }

        /** Where the relay publishes. */
        enum Target {
            RABBITMQ,
            KAFKA,
            LOG
        }
    }

    interface Outbox {
        /** Failed publishes (answers of the broker about the event, never its absence) before an event goes to DEAD. */
        @WithDefault("10")
        int maxAttempts();

        /** Delay before the first retry; doubled per attempt, with jitter derived from the event id. */
        @WithDefault("1s")
        Duration backoffInitial();

        /** Longest delay between retries. */
        @WithDefault("5m")
        Duration backoffMax();

        /** Published rows are deleted after this. */
        @WithDefault("7d")
        Duration retention();

        /** How often published rows past the retention are deleted. */
        @WithDefault("1h")
        Duration cleanupInterval();

        /** Rows deleted per cleanup transaction. */
        @WithDefault("1000")
        int cleanupBatchSize();

        /** How often the pending, dead and oldest-age gauges are refreshed. */
        @WithDefault("5s")
        Duration statsInterval();
    }

    interface Audit {
        /** Cross-check stock records against reservation lines (invariant I2) in the background. */
        @WithDefault("true")
        boolean enabled();

        /** How often a sample is audited. */
        @WithDefault("30s")
        Duration interval();

        /** Stock records audited per run; the sample rotates through all records. */
        @WithDefault("200")
        int sampleSize();
    }

    interface Events {
        /**
         * Prefix of every event's CloudEvents {@code dataschema}; {@code {type}.json} follows. The service serves the
         * schemas at /schemas/events/: set this to that path on the public host (https://api.example.com/schemas/events/)
         * so consumers can fetch what the event points to. Absolute, as CloudEvents requires of dataschema. Required in
         * prod (a consumer that fetches the schema trusts whoever holds the host it names); dev and tests name their
         * own listener.
         */
        Optional<String> schemaBaseUri();
    }

    interface Problems {
        /**
         * Prefix of every problem {@code type}; the slug follows. The default is a relative reference, resolved
         * against the request's URI; set an absolute one (https://api.example.com/problems/) when a gateway rewrites
         * paths.
         */
        @WithDefault("/problems/")
        String baseUri();
    }

    interface Security {
        /**
         * Verified bearer tokens kept in memory in all (keyed by the token's SHA-256), so a client's next request with
         * the same token skips the signature check and claim parsing; past it new tokens are verified without being
         * kept. 0 turns the cache off.
         */
        @WithDefault("10000")
        int verifiedTokens();

        /**
         * Verified tokens kept per tenant, evicted among that tenant's own: a tenant that sends ever new tokens flushes
         * its own entries, never another tenant's. 0 turns the cache off.
         */
        @WithDefault("256")
        int verifiedTokensPerTenant();

        /**
         * How long a verified token is trusted without being verified again: at most until its {@code exp}, and at
         * most this long, so a token signed with a key the provider has since removed is refused within this time.
         */
        @WithDefault("60s")
        Duration verifiedTokenTtl();

        /**
         * The {@code aud} values a token must name (one of them), comma-separated: tokens the same identity provider
         * issued to other services are refused. Required in prod; {@code unchecked} accepts any
         * audience and must be written out to take that risk. Mapped onto {@code mp.jwt.verify.audiences}.
         */
        Optional<List<String>> audience();

        /** The longest lifetime ({@code exp - iat}) of a token accepted; a token without {@code iat} is refused. */
        @WithDefault("24h")
        Duration maxTokenLifetime();

        /**
         * The key of the list endpoints' cursor MAC, the same on every replica (a cursor from one is read by another).
         * The default is a published dev value that the prod profile refuses to start with.
         */
        @WithDefault(DEV_CURSOR_SECRET)
        String cursorSecret();
    }
}
