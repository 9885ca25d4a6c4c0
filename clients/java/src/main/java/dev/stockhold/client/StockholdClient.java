package dev.stockhold.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * Stockhold's Java client. Thread-safe; make one per service and tenant token source, and share it. Every write
 * with an Idempotency-Key sends the same key on every attempt, so a retry never acts twice.
 *
 * <pre>{@code
 * StockholdClient stockhold = StockholdClient.builder(URI.create("https://stockhold.example"), () -> token).build();
 * Answer<Reservation> held = stockhold.reservations().create(
 *         ReservationRequest.of(List.of(ReservationRequestLine.of("A-1", 2))).withReference("order-1093"));
 * }</pre>
 */
public final class StockholdClient {

    private final Calls calls;
    private final Reservations reservations;
    private final Stock stock;
    private final Catalogue catalogue;
    private final Supply supply;
    private final Outbox outbox;

    private StockholdClient(Calls calls) {
        this.calls = calls;
        this.reservations = new Reservations(calls);
        this.stock = new Stock(calls);
        this.catalogue = new Catalogue(calls);
        this.supply = new Supply(calls);
        this.outbox = new Outbox(calls);
    }

    /** @param token the bearer token for each attempt (called every time, so it may refresh) */
    public static Builder builder(URI base, Supplier<String> token) {
        return new Builder(base, token);
    }

    public Reservations reservations() {
        return reservations;
    }

    public Stock stock() {
        return stock;
    }

    public Catalogue catalogue() {
        return catalogue;
    }

    public Supply supply() {
        return supply;
    }

    public Outbox outbox() {
        return outbox;
    }

    /**
     * This client with another retry policy, for calls that need their own deadline or attempts (a checkout that must
     * answer within 2 s, a back-office import that may wait a minute). It shares the connections and the retry budget
     * (whose ratio and rate stay this client's); its stats count its own calls and attempts, and the retries of the shared budget.
     */
    public StockholdClient with(RetryPolicy policy) {
        return new StockholdClient(calls.with(policy));
    }

    /** Calls, attempts and retries so far. */
    public ClientStats stats() {
        return calls.stats();
    }

    /** The JSON mapping the client uses: Java time as ISO-8601, unknown properties ignored (a newer service may add some). */
    public static ObjectMapper json() {
        return new ObjectMapper().registerModule(new JavaTimeModule()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    /** How the client connects and retries. */
    public static final class Builder {
        private final URI base;
        private final Supplier<String> token;
        private RetryPolicy policy = RetryPolicy.DEFAULT;
        private HttpClient http;

        private Builder(URI base, Supplier<String> token) {
            this.base = Objects.requireNonNull(base, "base");
            this.token = Objects.requireNonNull(token, "token");
        }

        public Builder retryPolicy(RetryPolicy value) {
            this.policy = Objects.requireNonNull(value, "policy");
            return this;
        }

        /**
         * The JDK client to send with; by default HTTP/1.1, a 5 s connect timeout, no redirect followed. Keep HTTP/1.1:
         * over HTTP/2 the JDK sends a body without Content-Length, which Stockhold refuses (411 length-required).
         */
        public Builder httpClient(HttpClient value) {
            this.http = value;
            return this;
        }

        public StockholdClient build() {
            HttpClient client = http != null ? http : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                    .build();
            return new StockholdClient(new Calls(client, base, token, policy, json()));
        }
    }
}
