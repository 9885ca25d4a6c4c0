package dev.stockhold.reservation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Provider;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

import dev.stockhold.Jdbc;
import dev.stockhold.StockholdConfig;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.StockMoves;
import dev.stockhold.security.WarmUpCredential;
import dev.stockhold.web.StrictJson;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.HttpServer;

/**
 * Before a start reports ready, the code of POST /v1/reservations runs for {@code stockhold.reservations.warm-up}, so
 * the first requests a new replica is sent do not pay for its JIT compiler and its cold connections. Two halves run
 * at once:
 * <ul>
 * <li>behind the HTTP layer, on {@link #CONNECTIONS} pooled connections: the body read and its validation, the
 * allocation read, the placed answer, and both writers of new reservations (the one statement and the transactional
 * path's). Nothing it writes is ever seen: each connection's work is one transaction that is rolled back, for a tenant
 * whose id holds a character no tenant claim may hold (so no request can name it, and no other replica's warm-up
 * shares its rows or waits on them). No event is handed to the relay, no outcome is logged or counted.</li>
 * <li>through it ({@link HttpWarmUp}): the start's own availability checks on its API port, on {@link #HTTP_CONNECTIONS}
 * connections, with a credential it gives itself ({@link WarmUpCredential}) and closes when the warm-up ends.</li>
 * </ul>
 * Readiness ({@code reservation-warm-up}) is DOWN until it ends; a warm-up that fails is logged and ends, never keeping
 * the replica out of service.
 */
@ApplicationScoped
@Readiness
public class ReservationWarmUp implements HealthCheck {

    /** Connections warmed at once: the pool's minimum size, each with its own transaction. */
    static final int CONNECTIONS = 4;
    /** The start's own HTTP connections to its API port. */
    static final int HTTP_CONNECTIONS = 2;
    /** The sign of a warm-up tenant: {@code ~} is outside the tenant claim's alphabet. */
    static final String TENANT_PREFIX = "~warm-up-";
    /** The tenant of the start's own HTTP requests: random, valid as a claim, and only ever read from. */
    private static final String WARM_UP_CLIENT = "warm-up.";
    private static final int SKUS = 8;
    private static final String LOCATION = "warm-up";
    private static final String STOCK = "INSERT INTO stock_records (tenant_id, sku, location, on_hand, received)"
            + " SELECT ?, 'sku-' || n, ?, 1000000000, 1000000000 FROM generate_series(1, " + SKUS + ") n";
    private static final Logger LOG = Logger.getLogger(ReservationWarmUp.class);

    private final StrictJson json;
    private final StockMoves stock;
    private final HeldViews views;
    private final ReservingService reserving;
    private final OneStatementReservation oneStatement;
    private final Jdbc jdbc;
    private final Duration duration;
    private final Duration keyWait;
    private final WarmUpCredential credential;
    private final Provider<HttpServer> server;
    private final AtomicLong reservations = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    private volatile boolean done;
    private volatile long tookMillis;

    ReservationWarmUp(StrictJson json, StockMoves stock, HeldViews views, ReservingService reserving,
            OneStatementReservation oneStatement, Jdbc jdbc, WarmUpCredential credential, Provider<HttpServer> server,
            StockholdConfig config) {
        this.credential = credential;
        this.server = server;
        this.json = json;
        this.stock = stock;
        this.views = views;
        this.reserving = reserving;
        this.oneStatement = oneStatement;
        this.jdbc = jdbc;
        this.duration = config.reservations().warmUp();
        this.keyWait = config.idempotency().inFlightWait();
    }

    void start(@Observes StartupEvent event) {
        if (duration.isZero() || duration.isNegative()) {
            done = true;
            return;
        }
        Thread warming = new Thread(this::run, "stockhold-warm-up");
        warming.setDaemon(true);
        warming.start();
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("reservation-warm-up").status(done).withData("reservations", reservations.get())
                .withData("requests", requests.get()).withData("tookMs", tookMillis).build();
    }

    /** Whether the warm-up has ended. */
    boolean done() {
        return done;
    }

    /** How many reservations it wrote (and rolled back). */
    long reservations() {
        return reservations.get();
    }

    /** How many of its own HTTP requests were answered. */
    long requests() {
        return requests.get();
    }

    private void run() {
        long started = System.nanoTime();
        long deadline = started + duration.toNanos();
        ExecutorService connections = Executors.newFixedThreadPool(CONNECTIONS + HTTP_CONNECTIONS,
                r -> new Thread(r, "stockhold-warm-up-connection"));
        HttpWarmUp http = new HttpWarmUp(this::apiPort,
                credential.open(WARM_UP_CLIENT + UUID.randomUUID().toString().replace("-", ""), duration.plusSeconds(5)));
        try {
            List<Future<?>> running = new java.util.ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                running.add(connections.submit(() -> oneConnection(deadline)));
            }
            for (int i = 0; i < HTTP_CONNECTIONS; i++) {
                long seed = i;
                running.add(connections.submit(() -> {
                    http.until(deadline, requests, seed);
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } catch (Exception e) {
            LOG.warnf("The reservation warm-up stopped early (%s); the replica is ready without it", e);
        } finally {
            credential.close();
            connections.shutdownNow();
            tookMillis = (System.nanoTime() - started) / 1_000_000;
            done = true;
            LOG.infof("Warmed up the reservation path with %d reservations (all rolled back) and %d availability requests in %d ms",
                    reservations.get(), requests.get(), tookMillis);
        }
    }

    /** The API port once the server listens; 0 before. */
    private int apiPort() {
        try {
            return server.get().getPort();
        } catch (RuntimeException notYet) {
            return 0;
        }
    }

    /** One connection's transaction: a tenant's stock, then reservations until the deadline, then a rollback. */
    private void oneConnection(long deadline) {
        String tenant = TENANT_PREFIX + UUID.randomUUID();
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                jdbc.run(Jdbc.Mode.JOIN, STOCK, (c, ps) -> {
                    ps.setString(1, tenant);
                    ps.setString(2, LOCATION);
                    return ps.executeUpdate();
                });
                for (long i = 0; System.nanoTime() < deadline; i++) {
                    reserve(tenant, i);
                    reservations.incrementAndGet();
                }
                throw new RolledBack();
            });
        } catch (RolledBack expected) {
            // every row this connection wrote is gone
        }
    }

    /**
     * One request as {@link ReservingService} takes it, its rows going into the open transaction: three in four by the
     * one statement, placed by the allocation read; the fourth by the transactional path itself
     * ({@link ReservingService#attempt}), which a refusal's retry, a hot sku's group and a lost race take.
     */
    private void reserve(String tenant, long i) {
        byte[] body = ("{\"lines\":[" + lines(i) + "],\"reference\":\"warm-up-" + i + "\"}").getBytes(StandardCharsets.UTF_8);
        ReservationRequest request = json.read(body, ReservationRequest.class).requireDistinctSkus().requireValidMetadata();
        ReservationAttempt a = new ReservationAttempt(tenant, IdempotencyKey.parse(UUID.randomUUID().toString()), request.fingerprint(),
                request);
        boolean written;
        if (i % 4 == 3) {
            ReservationReply reply = reserving.attempt(a, keyWait, true);
            written = !reply.replayed() && reply.response().status() == 201;
        } else {
            List<String> skus = request.lines().stream().map(ReservationRequest.Line::sku).distinct().toList();
            Allocation allocation = Allocation.of(request.allocationLines(), stock.candidates(tenant, skus, null), new HashMap<>());
            ReservationView held = views.held(request, (Allocation.Placed) allocation, Instant.now());
            written = oneStatement.writeInCallersTransaction(a, held, views.created(held),
                    keyWait) == OneStatementReservation.Result.CREATED;
        }
        if (!written) {
            throw new IllegalStateException("a warm-up reservation was not written");
        }
    }

    /** The lines of request {@code i}, one or two as most requests have, over the warm-up's skus (its HTTP half too). */
    static String lines(long i) {
        String first = "{\"sku\":\"sku-" + (1 + i % SKUS) + "\",\"quantity\":1}";
        return i % 3 == 2 ? first + ",{\"sku\":\"sku-" + (1 + (i + 1) % SKUS) + "\",\"quantity\":2}" : first;
    }

    /** Thrown at the end of a connection's work so that its transaction rolls back. */
    private static final class RolledBack extends RuntimeException {
        RolledBack() {
            super("warm-up rolled back", null, false, false);
        }
    }
}
