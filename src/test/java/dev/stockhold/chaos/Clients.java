package dev.stockhold.chaos;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.chaos.ClientLog.Intent;
import dev.stockhold.chaos.ClientLog.Operation;
import dev.stockhold.web.ProblemMappers;

/**
 * Concurrent clients as a careless but honest caller behaves: new reservations (some with a TTL of a few seconds, left
 * to expire), retries of keys whose answer they never got, replays of keys they did get, the same key sent to both
 * replicas at once, requests whose connection they drop right after sending, confirms, cancels, extends, listings,
 * edits of held reservations' lines, fulfilments and releases of reservations made with deferred fulfilment;
 * and admins adjusting stock by deltas (retrying keys) and setting counts with compare-and-set. Any replica may be
 * dead at any moment; a client that gets no answer treats the outcome as unknown and retries the key later.
 */
final class Clients {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final List<Replica> replicas;
    private final String token;
    private final List<String> skus;
    private final ClientLog log;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final ConcurrentLinkedDeque<String> toRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> adjustmentsToRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> batchesToRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> countsToRetry = new ConcurrentLinkedDeque<>();
    private final List<String> answeredKeys = new CopyOnWriteArrayList<>();
    private final List<String> reservationIds = new CopyOnWriteArrayList<>();
    /** Reservations made with deferred fulfilment, each with the first (sku, location) it holds. */
    private final List<Settleable> deferredLines = new CopyOnWriteArrayList<>();

    /** A line of a reservation made with deferred fulfilment that fulfilments and releases may name. */
    private record Settleable(String id, String sku, String location) {
    }

    private final Duration thinkTime;

    Clients(List<Replica> replicas, String token, List<String> skus, ClientLog log, Duration thinkTime) {
        this.thinkTime = thinkTime;
        this.replicas = replicas;
        this.token = token;
        this.skus = skus;
        this.log = log;
    }

    /** Runs {@code count} clients while {@code keepGoing} holds, then waits for their last requests. */
    void run(int count, BooleanSupplier keepGoing) throws InterruptedException {
        run(count, keepGoing, thinkTime, "chaos-client-");
    }

    /** 503 answers received so far (shed by the adaptive limit, a database away, an interrupted commit). */
    long shed() {
        LongAdder n = log.statuses.get(503);
        return n == null ? 0 : n.sum();
    }

    /** {@code count} more clients that send their next request as soon as the last one is answered, for {@code length}. */
    void burst(int count, Duration length) throws InterruptedException {
        Instant end = Instant.now().plus(length);
        run(count, () -> Instant.now().isBefore(end), Duration.ZERO, "chaos-burst-");
    }

    private void run(int count, BooleanSupplier keepGoing, Duration think, String name) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread t = new Thread(() -> loop(keepGoing, think), name + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    /** One kind of client step and how often it is taken, out of the sum of all weights. */
    private record Step(int weight, java.util.function.Consumer<ThreadLocalRandom> action) {
    }

    /** The workload: each step's share of what the clients do (weights out of 100). */
    private List<Step> workload() {
        return List.of(
                new Step(40, r -> reserve(Operation.RESERVE, newIntent(r), replica(r))),
                new Step(8, this::retry),
                new Step(4, this::settle),
                new Step(4, r -> concurrentDuplicate(newIntent(r))),
                new Step(6, r -> dropConnection(newIntent(r), replica(r), r)),
                new Step(12, r -> transition("confirm", r)),
                new Step(10, r -> transition("cancel", r)),
                new Step(3, r -> transition("extend", r)),
                new Step(2, this::edit),
                new Step(3, this::list),
                new Step(3, this::adjust),
                new Step(1, this::batch),
                new Step(1, this::count),
                new Step(3, this::compareAndSet));
    }

    private void loop(BooleanSupplier keepGoing, Duration think) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Step> steps = workload();
        int total = steps.stream().mapToInt(Step::weight).sum();
        while (keepGoing.getAsBoolean()) {
            int dice = random.nextInt(total);
            for (Step step : steps) {
                dice -= step.weight();
                if (dice < 0) {
                    step.action().accept(random);
                    break;
                }
            }
            try {
                Thread.sleep(random.nextLong(2 * think.toMillis() + 1));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private Replica replica(ThreadLocalRandom random) {
        return replicas.get(random.nextInt(replicas.size()));
    }

    private Intent newIntent(ThreadLocalRandom random) {
        Map<String, Integer> lines = new LinkedHashMap<>();
        int count = 1 + random.nextInt(3);
        while (lines.size() < count) {
            lines.put(skus.get(random.nextInt(skus.size())), 1 + random.nextInt(3));
        }
        String linesJson = lines.entrySet().stream()
                .map(e -> "{\"sku\":\"" + e.getKey() + "\",\"quantity\":" + e.getValue() + "}")
                .collect(Collectors.joining(","));
        int ttl = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 600;
        // one in four confirms commits the units for fulfilments and releases instead of selling them
        boolean deferred = random.nextInt(4) == 0;
        // one in six requests splits its lines across locations, one in six takes what there is
        String allocation = switch (random.nextInt(6)) {
            case 0 -> "split";
            case 1 -> "partial";
            default -> null;
        };
        Intent intent = new Intent("chaos-" + UUID.randomUUID(), "{\"lines\":[" + linesJson + "],\"ttlSeconds\":" + ttl
                + (deferred ? ",\"fulfilment\":\"deferred\"" : "") + (allocation == null ? "" : ",\"allocation\":\"" + allocation + "\"")
                + "}", lines, deferred, allocation);
        log.intents.put(intent.key(), intent);
        return intent;
    }

    private HttpRequest reserveRequest(Intent intent, Replica replica) {
        return HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/reservations"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", intent.key())
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString(intent.body()))
                .build();
    }

    private void reserve(Operation op, Intent intent, Replica replica) {
        log.count(op);
        try {
            record(intent, send(reserveRequest(intent, replica), replica,
                    other -> reserveRequest(intent, other)));
        } catch (IOException e) {
            unknownOutcome(intent);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends as a load balancer in front of the replicas would: a refused connection (the replica is down, nothing was
     * sent) goes to the other replica; anything that fails after sending is an unknown outcome for the caller.
     */
    private HttpResponse<String> send(HttpRequest request, Replica replica, Function<Replica, HttpRequest> elsewhere)
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
    private HttpResponse<String> timed(HttpRequest request, Replica replica) throws IOException, InterruptedException {
        long start = System.nanoTime();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } finally {
            log.slowest.computeIfAbsent(replica.name, r -> new LongAccumulator(Math::max, 0))
                    .accumulate((System.nanoTime() - start) / 1_000_000);
        }
    }

    /**
     * An ERP's delta: a new key (or, half the time, the retry of one whose answer never came) for -3..+6 units at the
     * default location or at WH-2, which the first adjustment there creates.
     */
    private void adjust(ThreadLocalRandom random) {
        log.count(Operation.ADJUST);
        String key = random.nextBoolean() ? adjustmentsToRetry.pollFirst() : null;
        ClientLog.Adjustment adjustment = key == null ? null : log.adjustments.get(key);
        if (adjustment == null) {
            long delta = random.nextInt(10) - 3;
            adjustment = new ClientLog.Adjustment("adj-" + UUID.randomUUID(), skus.get(random.nextInt(skus.size())),
                    random.nextInt(4) == 0 ? "WH-2" : "default", delta == 0 ? 1 : delta);
            log.adjustments.put(adjustment.key(), adjustment);
        }
        ClientLog.Adjustment a = adjustment;
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/items/"
                + a.sku() + "/stock/" + a.location() + "/adjustments"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", a.key()).timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"delta\":" + a.delta() + ",\"reason\":\"chaos\"}")).build();
        sendKeyed(random, request, a.key(), adjustmentsToRetry, (response, body) -> log.adjustAnswers.add(new ClientLog.AdjustAnswer(
                a.key(), response.statusCode(), body.path("version").asLong(-1), slug(body), replayed(response))));
    }

    /**
     * Sends an admin write under its key, as a load balancer would (see {@link #send}), hands the answer to
     * {@code record}, and queues the key for a retry when no answer came or the answer asks for one (5xx, 429, in
     * progress).
     */
    private void sendKeyed(ThreadLocalRandom random, Function<Replica, HttpRequest> request, String key,
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

    private static boolean replayed(HttpResponse<String> response) {
        return response.headers().firstValue("Idempotent-Replayed").isPresent();
    }

    /**
     * An ERP's batch: 2 or 3 deltas of -3..+6 over distinct records (default or WH-2), all or nothing under one key; half
     * the time the retry of one whose answer never came.
     */
    private void batch(ThreadLocalRandom random) {
        log.count(Operation.BATCH_ADJUST);
        String key = random.nextBoolean() ? batchesToRetry.pollFirst() : null;
        ClientLog.Batch batch = key == null ? null : log.batches.get(key);
        if (batch == null) {
            Map<String, ClientLog.Adjustment> items = new LinkedHashMap<>();
            String batchKey = "batch-" + UUID.randomUUID();
            int size = 2 + random.nextInt(2);
            while (items.size() < size) {
                String sku = skus.get(random.nextInt(skus.size()));
                String location = random.nextInt(4) == 0 ? "WH-2" : "default";
                long delta = random.nextInt(10) - 3;
                items.putIfAbsent(sku + "@" + location, new ClientLog.Adjustment(batchKey, sku, location, delta == 0 ? 1 : delta));
            }
            batch = new ClientLog.Batch(batchKey, List.copyOf(items.values()));
            log.batches.put(batchKey, batch);
        }
        String body = batch.items().stream()
                .map(a -> "{\"sku\":\"" + a.sku() + "\",\"location\":\"" + a.location() + "\",\"delta\":" + a.delta()
                        + ",\"reason\":\"chaos batch\"}")
                .collect(Collectors.joining(",", "{\"adjustments\":[", "]}"));
        ClientLog.Batch b = batch;
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/stock/adjustments"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", b.key())
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        sendKeyed(random, request, b.key(), batchesToRetry, (response, answer) -> log.batchAnswers
                .add(new ClientLog.BatchAnswer(b.key(), response.statusCode(), slug(answer), replayed(response))));
    }

    /**
     * A WMS count at the default location or WH-2: 1 to 4 skus counted at 0..12 units as of a moment up to 2 s ago, one
     * in four as of 30 s ago (usually stale by then), one in five at WH-2 a full count; half the time the retry of one
     * whose answer never came.
     */
    private void count(ThreadLocalRandom random) {
        log.count(Operation.COUNT);
        String key = random.nextBoolean() ? countsToRetry.pollFirst() : null;
        ClientLog.Count count = key == null ? null : log.counts.get(key);
        if (count == null) {
            String location = random.nextBoolean() ? "WH-2" : "default";
            boolean full = location.equals("WH-2") && random.nextInt(5) == 0;
            java.util.Set<String> listed = new java.util.LinkedHashSet<>();
            int size = 1 + random.nextInt(4);
            while (listed.size() < size) {
                listed.add(skus.get(random.nextInt(skus.size())));
            }
            java.time.Instant asOf = java.time.Instant.now().minusMillis(random.nextInt(4) == 0 ? 30_000 : random.nextInt(2_000));
            String body = "{\"asOf\":\"" + asOf + "\"" + (full ? ",\"mode\":\"full\"" : "") + ",\"records\":["
                    + listed.stream().map(s -> "{\"sku\":\"" + s + "\",\"onHand\":" + random.nextInt(13) + "}")
                            .collect(Collectors.joining(","))
                    + "]}";
            count = new ClientLog.Count("count-" + UUID.randomUUID(), location, body, List.copyOf(listed));
            log.counts.put(count.key(), count);
        }
        ClientLog.Count c = count;
        Function<Replica, HttpRequest> request = replica -> HttpRequest
                .newBuilder(URI.create(replica.baseUrl() + "/v1/locations/" + c.location() + "/snapshots"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", c.key())
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(c.body())).build();
        sendKeyed(random, request, c.key(), countsToRetry, (response, answer) -> {
            int changed = -1;
            if (response.statusCode() == 200) {
                changed = 0;
                for (JsonNode r : answer.path("records")) {
                    if (r.path("status").asText().equals("applied") && r.path("drift").asLong() != 0) {
                        changed++;
                    }
                }
            }
            log.countAnswers.add(new ClientLog.CountAnswer(c.key(), response.statusCode(), changed, slug(answer), replayed(response)));
        });
    }

    /** A physical count: read the record and its ETag, then set on hand a little off it, only if nobody wrote since. */
    private void compareAndSet(ThreadLocalRandom random) {
        log.count(Operation.COMPARE_AND_SET);
        String sku = skus.get(random.nextInt(skus.size()));
        Replica replica = replica(random);
        Function<Replica, HttpRequest> read = r -> HttpRequest.newBuilder(URI.create(r.baseUrl() + "/v1/items/" + sku + "/stock/default"))
                .header("Authorization", "Bearer " + token).timeout(TIMEOUT).GET().build();
        try {
            HttpResponse<String> current = send(read.apply(replica), replica, read);
            log.answered(current.statusCode());
            if (current.statusCode() != 200) {
                return;
            }
            String etag = current.headers().firstValue("ETag").orElseThrow();
            JsonNode record = parse(current.body());
            long onHand = Math.max(record.path("held").asLong(), record.path("onHand").asLong() + random.nextInt(7) - 2);
            Function<Replica, HttpRequest> write = r -> HttpRequest
                    .newBuilder(URI.create(r.baseUrl() + "/v1/items/" + sku + "/stock/default"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("If-Match", etag)
                    .timeout(TIMEOUT).PUT(HttpRequest.BodyPublishers.ofString("{\"onHand\":" + onHand + "}")).build();
            HttpResponse<String> response;
            try {
                response = send(write.apply(replica), replica, write);
            } catch (IOException e) {
                log.unknownSets.increment();
                throw e;
            }
            log.answered(response.statusCode());
            JsonNode body = parse(response.body());
            if (ProblemMappers.OUTCOME_UNKNOWN.equals(body.path("detail").asText())) {
                log.unknownSets.increment(); // its commit was cut off: it may have won, like a set never answered
                log.outcomeUnknown.increment();
            }
            log.setAnswers.add(new ClientLog.SetAnswer(sku, "default", etag, onHand, response.statusCode(), body.path("version").asLong(-1),
                    slug(body)));
        } catch (IOException e) {
            log.noAnswer.increment();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void retry(ThreadLocalRandom random) {
        String key = toRetry.pollFirst();
        if (key == null && !answeredKeys.isEmpty()) {
            key = answeredKeys.get(random.nextInt(answeredKeys.size()));
        }
        if (key != null) {
            reserve(Operation.RETRY, log.intents.get(key), replica(random));
        }
    }

    /** The same key and body to both replicas at the same moment: one executes, the other waits and replays. */
    private void concurrentDuplicate(Intent intent) {
        log.count(Operation.CONCURRENT_DUPLICATE);
        List<CompletableFuture<HttpResponse<String>>> both = replicas.stream()
                .map(r -> http.sendAsync(reserveRequest(intent, r), HttpResponse.BodyHandlers.ofString())).toList();
        for (CompletableFuture<HttpResponse<String>> answer : both) {
            try {
                record(intent, answer.join());
            } catch (RuntimeException e) {
                unknownOutcome(intent);
            }
        }
    }

    /** Sends the whole request, then closes the connection without reading a byte of the answer. */
    private void dropConnection(Intent intent, Replica replica, ThreadLocalRandom random) {
        log.count(Operation.DROPPED_CONNECTION);
        byte[] body = intent.body().getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/reservations HTTP/1.1\r\n"
                + "Host: 127.0.0.1:" + replica.port + "\r\n"
                + "Authorization: Bearer " + token + "\r\n"
                + "Content-Type: application/json\r\n"
                + "Idempotency-Key: " + intent.key() + "\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", replica.port), 2_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            Thread.sleep(random.nextInt(20));
        } catch (IOException e) {
            // the replica is down: the outcome is just as unknown
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        unknownOutcome(intent);
    }

    private void unknownOutcome(Intent intent) {
        log.noAnswer.increment();
        log.unansweredAttempts.add(intent.key());
        toRetry.addLast(intent.key());
    }

    private void record(Intent intent, HttpResponse<String> response) {
        int status = response.statusCode();
        log.answered(status);
        JsonNode body = parse(response.body());
        boolean replayed = response.headers().firstValue("Idempotent-Replayed").isPresent();
        String id = status == 201 ? body.path("id").asText(null) : null;
        String problem = slug(body);
        log.reserveAnswers.add(new ClientLog.ReserveAnswer(intent.key(), status, id, problem, replayed));
        if (status == 201 && intent.partial()) {
            Map<String, Integer> held = new LinkedHashMap<>();
            body.path("lines").forEach(line -> {
                if (line.path("quantity").asInt() > 0) {
                    held.put(line.path("sku").asText(), line.path("quantity").asInt());
                }
            });
            log.partialHeld.put(intent.key(), held);
        }
        if (status == 201 && !replayed) {
            reservationIds.add(id);
            if (intent.deferred()) {
                settleable(id, body);
            }
        }
        if (ProblemMappers.OUTCOME_UNKNOWN.equals(body.path("detail").asText())) {
            log.unansweredAttempts.add(intent.key()); // a commit interrupted by the database: like a lost response
            log.outcomeUnknown.increment();
        }
        if (status >= 500 || status == 429 || "idempotency-request-in-progress".equals(problem)) {
            toRetry.addLast(intent.key()); // nothing happened (or not yet): safe and necessary to retry
        } else {
            answeredKeys.add(intent.key());
        }
    }

    /** The first (sku, location) a created reservation holds: a line's own location, or the first of its allocations. */
    private void settleable(String id, JsonNode created) {
        for (JsonNode line : created.path("lines")) {
            JsonNode at = line.path("allocations").isArray() ? line.path("allocations").path(0).path("location") : line.path("location");
            if (!at.isMissingNode() && line.path("quantity").asInt() > 0) {
                deferredLines.add(new Settleable(id, line.path("sku").asText(), at.asText()));
                return;
            }
        }
    }

    /**
     * A fulfilment or a release of one unit of one line of a reservation made with deferred fulfilment, under a new key:
     * before the confirm it is refused, and past what is committed it is over-fulfilment.
     */
    private void settle(ThreadLocalRandom random) {
        if (deferredLines.isEmpty()) {
            return;
        }
        log.count(Operation.SETTLE);
        Settleable target = deferredLines.get(random.nextInt(deferredLines.size()));
        String action = random.nextInt(3) == 0 ? "release" : "fulfil";
        String key = "settle-" + UUID.randomUUID();
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(
                URI.create(replica.baseUrl() + "/v1/reservations/" + target.id()
                        + ("fulfil".equals(action) ? "/fulfilments" : "/release")))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":[{\"sku\":\"" + target.sku() + "\",\"location\":\""
                        + target.location() + "\",\"quantity\":1}]}"))
                .build();
        Replica replica = replica(random);
        try {
            HttpResponse<String> response = send(request.apply(replica), replica, request);
            log.answered(response.statusCode());
            log.settleAnswers.add(new ClientLog.SettleAnswer(key, target.id(), action, target.sku(), response.statusCode(),
                    slug(parse(response.body()))));
        } catch (IOException e) {
            log.noAnswer.increment();
            log.settleAnswers.add(new ClientLog.SettleAnswer(key, target.id(), action, target.sku(), 0, null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * An edit of a reservation's lines at the version just read: the first line one unit more or less. Stale by the
     * time it lands, past its hold, or short of stock, it is refused and changes nothing.
     */
    private void edit(ThreadLocalRandom random) {
        if (reservationIds.isEmpty()) {
            return;
        }
        log.count(Operation.EDIT);
        String id = reservationIds.get(random.nextInt(reservationIds.size()));
        Replica replica = replica(random);
        Function<Replica, HttpRequest> read = r -> HttpRequest.newBuilder(URI.create(r.baseUrl() + "/v1/reservations/" + id))
                .header("Authorization", "Bearer " + token).timeout(TIMEOUT).GET().build();
        try {
            HttpResponse<String> current = send(read.apply(replica), replica, read);
            JsonNode body = parse(current.body());
            if (current.statusCode() != 200 || !"HELD".equals(body.path("status").asText())) {
                return;
            }
            Map<String, Integer> lines = new LinkedHashMap<>();
            // a line of a partial reservation that got nothing is not held, and an edit's lines are at least one unit
            body.path("lines").forEach(l -> {
                if (l.path("quantity").asInt() > 0) {
                    lines.merge(l.path("sku").asText(), l.path("quantity").asInt(), Integer::sum);
                }
            });
            String first = lines.keySet().iterator().next();
            lines.put(first, Math.max(1, lines.get(first) + (random.nextBoolean() ? 1 : -1)));
            String json = lines.entrySet().stream().map(e -> "{\"sku\":\"" + e.getKey() + "\",\"quantity\":" + e.getValue() + "}")
                    .collect(Collectors.joining(","));
            String key = "edit-" + UUID.randomUUID();
            String etag = current.headers().firstValue("ETag").orElse("\"0\"");
            Function<Replica, HttpRequest> patch = r -> HttpRequest.newBuilder(URI.create(r.baseUrl() + "/v1/reservations/" + id))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                    .header("If-Match", etag).timeout(TIMEOUT)
                    .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"lines\":[" + json + "]}")).build();
            try {
                HttpResponse<String> response = send(patch.apply(replica), replica, patch);
                log.answered(response.statusCode());
                log.editAnswers.add(new ClientLog.EditAnswer(key, id, lines, response.statusCode(), slug(parse(response.body()))));
            } catch (IOException e) {
                log.noAnswer.increment();
                log.editAnswers.add(new ClientLog.EditAnswer(key, id, lines, 0, null));
            }
        } catch (IOException e) {
            log.noAnswer.increment();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void transition(String action, ThreadLocalRandom random) {
        if (reservationIds.isEmpty()) {
            return;
        }
        log.count(switch (action) {
            case "confirm" -> Operation.CONFIRM;
            case "cancel" -> Operation.CANCEL;
            default -> Operation.EXTEND;
        });
        String id = reservationIds.get(random.nextInt(reservationIds.size()));
        // an extend asks for 5-10 minutes more: within the maximum hold, and longer than the run
        HttpRequest.BodyPublisher payload = "extend".equals(action)
                ? HttpRequest.BodyPublishers.ofString("{\"ttlSeconds\":" + (300 + random.nextInt(300)) + "}")
                : HttpRequest.BodyPublishers.noBody();
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(
                URI.create(replica.baseUrl() + "/v1/reservations/" + id + "/" + action))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").timeout(TIMEOUT)
                .POST(payload).build();
        Replica replica = replica(random);
        try {
            HttpResponse<String> response = send(request.apply(replica), replica, request);
            log.answered(response.statusCode());
            JsonNode body = parse(response.body());
            log.transitionAnswers.add(new ClientLog.TransitionAnswer(id, action, response.statusCode(),
                    response.statusCode() == 200 ? body.path("status").asText() : null, slug(body)));
        } catch (IOException e) {
            log.noAnswer.increment();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Pages through the tenant's reservations (sometimes filtered by status) while everyone else writes: no item may
     * come twice and the pages must run newest first.
     */
    private void list(ThreadLocalRandom random) {
        log.count(Operation.LIST);
        String filter = random.nextBoolean() ? ""
                : "&status=" + List.of("HELD", "CONFIRMED", "CANCELLED", "EXPIRED").get(random.nextInt(4));
        java.util.Set<String> seen = new java.util.HashSet<>();
        String previous = null;
        String cursor = null;
        for (int page = 0; page < 3; page++) {
            String url = "/v1/reservations?limit=25" + filter + (cursor == null ? "" : "&cursor=" + cursor);
            Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + url))
                    .header("Authorization", "Bearer " + token).timeout(TIMEOUT).GET().build();
            Replica replica = replica(random);
            try {
                HttpResponse<String> response = send(request.apply(replica), replica, request);
                log.answered(response.statusCode());
                if (response.statusCode() != 200) {
                    return;
                }
                log.listedPages.increment();
                JsonNode body = parse(response.body());
                for (JsonNode item : body.path("items")) {
                    String key = item.path("createdAt").asText() + " " + item.path("id").asText();
                    if (!seen.add(item.path("id").asText()) || previous != null && compare(key, previous) > 0) {
                        log.listingAnomalies.add(url + ": " + key + " after " + previous);
                    }
                    previous = key;
                }
                cursor = body.path("nextCursor").asText(null);
                if (cursor == null) {
                    return;
                }
            } catch (IOException e) {
                log.noAnswer.increment();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Newest first means (createdAt, id) descending; createdAt compared as instants. */
    private static int compare(String a, String b) {
        String[] x = a.split(" ");
        String[] y = b.split(" ");
        int byTime = java.time.Instant.parse(x[0]).compareTo(java.time.Instant.parse(y[0]));
        return byTime != 0 ? byTime : java.util.UUID.fromString(x[1]).toString().compareTo(java.util.UUID.fromString(y[1]).toString());
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body == null || body.isEmpty() ? "{}" : body);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static String slug(JsonNode body) {
        String type = body.path("type").asText("");
        return type.isEmpty() ? null : type.substring(type.lastIndexOf('/') + 1);
    }
}
