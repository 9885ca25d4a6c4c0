package dev.stockhold;

import java.time.Duration;

import io.smallrye.config.WithDefault;

/**
 * {@code stockhold.limits}: how much of a replica one request, one tenant and one connection may take (admission,
 * the pool share, the write timeout, how far a split request spreads). Part of {@link StockholdConfig}.
 */
public interface LimitsConfig {
    /**
     * Requests one tenant may have in progress per replica; beyond it 429 too-many-requests with Retry-After. 0
     * turns the limit off.
     */
    @WithDefault("64")
    int perTenantConcurrency();

    /**
     * The share of the connection pool ({@code quarkus.datasource.jdbc.max-size}) one tenant's requests may hold in
     * this replica at once: a request waits for its tenant's share before it takes a place (up to
     * {@code pool-share-wait}, then 503 service-unavailable), so one tenant's heavy requests (batches, snapshots)
     * always leave connections to the others. 0 turns the share off.
     */
    @WithDefault("0.75")
    double tenantPoolShare();

    /** The longest a request waits for its tenant's share of the connection pool. */
    @WithDefault("5s")
    Duration poolShareWait();

    /**
     * Shed reservations this replica cannot take in time: an adaptive concurrency limit (Netflix concurrency-limits,
     * Gradient2) on POST /v1/reservations follows the latency of the requests it admits; beyond the limit 503
     * service-unavailable with Retry-After at once, before a worker thread or a connection is taken.
     */
    @WithDefault("true")
    boolean adaptiveReservations();

    /** The adaptive limit's starting point (requests in progress on this replica). */
    @WithDefault("32")
    int reservationsInitialLimit();

    /** The adaptive limit never goes above this; keep it near the connection pool's size times two. */
    @WithDefault("128")
    int reservationsMaxLimit();

    /**
     * The time a request body has to arrive whole (HTTP/1.1 and HTTP/2); a body still incomplete then is answered
     * 408 request-timeout and its connection (HTTP/1.1) or stream (HTTP/2) closed. A 5 KB cart takes milliseconds.
     */
    @WithDefault("10s")
    Duration bodyReadTimeout();

    /**
     * The time an answer has to be written out once it is handed to the connection; a client that does not read it
     * (an HTTP/2 receive window of zero, a stalled socket) then has its stream reset (HTTP/2) or its connection
     * closed (HTTP/1.1), and the tenant's place is given back. The replica's places are given back already when
     * the answer is handed over.
     */
    @WithDefault("10s")
    Duration responseWriteTimeout();

    /**
     * The locations one line of a split or partial reservation may be served from; what it would need beyond them
     * is short (split: 409 insufficient-stock; partial: the line's shortfall). A whole line has one.
     */
    @WithDefault("10")
    int locationsPerLine();

    /**
     * The records all lines of one split or partial reservation may be served from together, which bounds its
     * lines, its stored answer and its events whatever the number of locations a sku is stocked at.
     */
    @WithDefault("200")
    int allocationsPerReservation();
}
