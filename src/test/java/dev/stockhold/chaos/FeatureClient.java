package dev.stockhold.chaos;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One feature's chaos client: the requests a careless but honest caller of that feature sends, as weighted steps of the
 * workload, over the transport every client shares (any replica may be dead at any moment; a request whose connection is
 * refused goes to the other replica, one that fails after sending is an unknown outcome). A new feature adds its client
 * to {@link Clients#FEATURES}.
 */
abstract class FeatureClient {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration TIMEOUT = Duration.ofSeconds(15);

    /** One kind of client step and how often it is taken, out of the sum of all weights (about 100). */
    record Step(int weight, java.util.function.Consumer<ThreadLocalRandom> action) {
    }

    /** What every client shares: the replicas, the tenant's token, the skus, the log the checker reads, the reservations made. */
    record Context(List<Replica> replicas, String token, List<String> skus, ClientLog log, Made made) {
    }

    /** Reservations the clients made: every one created, and those with deferred fulfilment with a line to settle. */
    static final class Made {
        final List<String> ids = new CopyOnWriteArrayList<>();
        final List<Settleable> deferredLines = new CopyOnWriteArrayList<>();
    }

    /** A line of a reservation made with deferred fulfilment that fulfilments and releases may name. */
    record Settleable(String id, String sku, String location) {
    }

    List<Replica> replicas;
    String token;
    List<String> skus;
    ClientLog log;
    Made made;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

    /** Joins the run: what every client shares. @return this client */
    final FeatureClient join(Context context) {
        this.replicas = context.replicas();
        this.token = context.token();
        this.skus = context.skus();
        this.log = context.log();
        this.made = context.made();
        return this;
    }

    /** This feature's steps of the workload. */
    abstract List<Step> steps();

    /** What this feature needs before the load starts (locations, channels, kits), sent once to one replica. */
    void prepare(Replica replica) throws IOException, InterruptedException {
    }

    /** A setup write for {@link #prepare}: PUT of {@code json} at {@code path}; anything but 200 or 201 stops the run. */
    final void put(Replica replica, String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(java.net.URI.create(replica.baseUrl() + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").timeout(TIMEOUT)
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 && response.statusCode() != 201) {
            throw new IllegalStateException("preparing " + path + ": " + response.statusCode() + " " + response.body());
        }
    }

    private static final java.util.concurrent.atomic.AtomicLong SUPPLIES = new java.util.concurrent.atomic.AtomicLong();

    /**
     * An expected date no other supply of the run has (a minute apart from 2030 on): a promise's promisedAt then names
     * the one supply it waits for, which the checker needs to follow promises through the events.
     */
    static String expectedAt() {
        return java.time.Instant.parse("2030-01-01T00:00:00Z").plusSeconds(60 * SUPPLIES.incrementAndGet()).toString();
    }

    /** A POST of {@code json} to {@code path} under {@code key}, to any replica. */
    final Function<Replica, HttpRequest> keyed(String path, String key, String json) {
        return replica -> HttpRequest.newBuilder(java.net.URI.create(replica.baseUrl() + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    /** A POST without a body (a cancel) to {@code path}, to any replica. */
    final Function<Replica, HttpRequest> action(String path) {
        return replica -> HttpRequest.newBuilder(java.net.URI.create(replica.baseUrl() + path)).header("Authorization", "Bearer " + token)
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build();
    }

    /**
     * Notes an answer this feature's client does not expect from a correct service (the run fails on any): a status
     * other than success, a retryable one, or a refusal named in {@code refusals}.
     */
    final void expect(String what, HttpResponse<String> response, JsonNode body, java.util.Set<String> refusals) {
        int status = response.statusCode();
        String slug = slug(body);
        boolean fine = status == 200 || status == 201 || status == 429 || status >= 500
                || "idempotency-request-in-progress".equals(slug) || (slug != null && refusals.contains(slug));
        if (!fine) {
            log.unexpected.add(what + " answered " + status + " " + slug + ": " + body);
        }
    }

    final Replica replica(ThreadLocalRandom random) {
        return replicas.get(random.nextInt(replicas.size()));
    }

    /**
     * Sends as a load balancer in front of the replicas would: a refused connection (the replica is down, nothing was
     * sent) goes to the other replica; anything that fails after sending is an unknown outcome for the caller.
     */
    final HttpResponse<String> send(HttpRequest request, Replica replica, Function<Replica, HttpRequest> elsewhere)
            throws IOException, InterruptedException {
        try {
            return timed(request, replica);
        } catch (ConnectException refused) {
            log.refused.increment();
            Replica other = replicas.get((replicas.indexOf(replica) + 1) % replicas.size());
            try {
                return timed(elsewhere.apply(other), other);
            } catch (ConnectException alsoRefused) {
                log.refused.increment();
                Thread.sleep(100); // both down: back off like a client would
                throw alsoRefused;
            }
        }
    }

    /** Sends and notes how long the replica took to answer (or to fail). */
    final HttpResponse<String> timed(HttpRequest request, Replica replica) throws IOException, InterruptedException {
        long start = System.nanoTime();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } finally {
            log.slowest.computeIfAbsent(replica.name, r -> new LongAccumulator(Math::max, 0))
                    .accumulate((System.nanoTime() - start) / 1_000_000);
        }
    }

    /**
     * Sends an admin write under its key, as a load balancer would (see {@link #send}), hands the answer to
     * {@code record}, and queues the key for a retry when no answer came or the answer asks for one (5xx, 429, in
     * progress).
     */
    final void sendKeyed(ThreadLocalRandom random, Function<Replica, HttpRequest> request, String key,
            ConcurrentLinkedDeque<String> retries, java.util.function.BiConsumer<HttpResponse<String>, JsonNode> record) {
        Replica replica = replica(random);
        try {
            HttpResponse<String> response = send(request.apply(replica), replica, request);
            log.answered(response.statusCode());
            JsonNode body = parse(response.body());
            record.accept(response, body);
            if (response.statusCode() >= 500 || response.statusCode() == 429 || "idempotency-request-in-progress".equals(slug(body))) {
                retries.addLast(key);
            }
        } catch (IOException e) {
            log.noAnswer.increment();
            retries.addLast(key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static boolean replayed(HttpResponse<String> response) {
        return response.headers().firstValue("Idempotent-Replayed").isPresent();
    }

    static JsonNode parse(String body) {
        try {
            return JSON.readTree(body == null || body.isEmpty() ? "{}" : body);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    static String slug(JsonNode body) {
        String type = body.path("type").asText("");
        return type.isEmpty() ? null : type.substring(type.lastIndexOf('/') + 1);
    }

    /** Half the time the write of a key whose answer never came (taken from {@code retries}), else null: a new one. */
    static <T> T halfTheTimeARetry(ThreadLocalRandom random, java.util.Deque<String> retries, java.util.Map<String, T> byKey) {
        String key = random.nextBoolean() ? retries.pollFirst() : null;
        return key == null ? null : byKey.get(key);
    }

    /** One of {@code made}, at random; null while there is none. */
    static <T> T anyOf(ThreadLocalRandom random, List<T> made) {
        return made.isEmpty() ? null : made.get(random.nextInt(made.size()));
    }

    /**
     * Sends to {@code replica} as a load balancer would (see {@link #send}) and counts the answer's status.
     *
     * @return the answer; null when none came (counted as no answer) or the client was stopped
     */
    final HttpResponse<String> exchange(Replica replica, Function<Replica, HttpRequest> request) {
        try {
            HttpResponse<String> response = send(request.apply(replica), replica, request);
            log.answered(response.statusCode());
            return response;
        } catch (IOException e) {
            log.noAnswer.increment();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }
}
