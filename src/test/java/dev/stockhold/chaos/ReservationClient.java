package dev.stockhold.chaos;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Intent;
import dev.stockhold.chaos.ClientLog.Operation;
import dev.stockhold.web.ProblemMappers;

/**
 * Reservations as a careless but honest caller makes them: new ones (some with a TTL of a few seconds, left to expire,
 * some split or partial, some deferred), retries of keys whose answer never came, replays of keys that did, the same
 * key sent to both replicas at once, and requests whose connection is dropped right after sending.
 */
final class ReservationClient extends FeatureClient {

    private final ConcurrentLinkedDeque<String> toRetry = new ConcurrentLinkedDeque<>();
    private final List<String> answeredKeys = new CopyOnWriteArrayList<>();

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
            made.ids.add(id);
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
                made.deferredLines.add(new Settleable(id, line.path("sku").asText(), at.asText()));
                return;
            }
        }
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(40, r -> reserve(Operation.RESERVE, newIntent(r), replica(r))), new Step(8, this::retry),
                new Step(4, r -> concurrentDuplicate(newIntent(r))), new Step(6, r -> dropConnection(newIntent(r), replica(r), r)));
    }
}
