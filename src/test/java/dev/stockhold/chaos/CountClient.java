package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Operation;
import dev.stockhold.web.ProblemMappers;

/** A warehouse's counts: snapshots as of a moment (retrying keys), and physical counts set with compare-and-set. */
final class CountClient extends FeatureClient {

    private final ConcurrentLinkedDeque<String> countsToRetry = new ConcurrentLinkedDeque<>();

    /**
     * A WMS count at the default location or WH-2: 1 to 4 skus counted at 0..12 units as of a moment up to 2 s ago, one
     * in four as of 30 s ago (usually stale by then), one in five at WH-2 a full count; half the time the retry of one
     * whose answer never came.
     */
    private void count(ThreadLocalRandom random) {
        log.count(Operation.COUNT);
        ClientLog.Count count = halfTheTimeARetry(random, countsToRetry, log.counts);
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
        HttpResponse<String> current = exchange(replica, read);
        if (current == null || current.statusCode() != 200) {
            return;
        }
        String etag = current.headers().firstValue("ETag").orElseThrow();
        JsonNode record = parse(current.body());
        long onHand = Math.max(record.path("held").asLong(), record.path("onHand").asLong() + random.nextInt(7) - 2);
        Function<Replica, HttpRequest> write = r -> HttpRequest.newBuilder(URI.create(r.baseUrl() + "/v1/items/" + sku + "/stock/default"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("If-Match", etag)
                .timeout(TIMEOUT).PUT(HttpRequest.BodyPublishers.ofString("{\"onHand\":" + onHand + "}")).build();
        HttpResponse<String> response = exchange(replica, write);
        if (response == null) {
            log.unknownSets.increment(); // never answered: it may have won
            return;
        }
        JsonNode body = parse(response.body());
        if (ProblemMappers.OUTCOME_UNKNOWN.equals(body.path("detail").asText())) {
            log.unknownSets.increment(); // its commit was cut off: it may have won, like a set never answered
            log.outcomeUnknown.increment();
        }
        log.setAnswers.add(new ClientLog.SetAnswer(sku, "default", etag, onHand, response.statusCode(), body.path("version").asLong(-1),
                slug(body)));
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(1, this::count), new Step(3, this::compareAndSet));
    }
}
