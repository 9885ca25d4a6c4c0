package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.stockhold.chaos.ClientLog.Operation;

/** An ERP's stock feed: idempotent deltas, one record at a time or in all-or-nothing batches, retrying keys. */
final class AdjustmentClient extends FeatureClient {

    private final ConcurrentLinkedDeque<String> adjustmentsToRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> batchesToRetry = new ConcurrentLinkedDeque<>();

    /**
     * An ERP's delta: a new key (or, half the time, the retry of one whose answer never came) for -3..+6 units at the
     * default location or at WH-2, which the first adjustment there creates.
     */
    private void adjust(ThreadLocalRandom random) {
        log.count(Operation.ADJUST);
        ClientLog.Adjustment adjustment = halfTheTimeARetry(random, adjustmentsToRetry, log.adjustments);
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
     * An ERP's batch: 2 or 3 deltas of -3..+6 over distinct records (default or WH-2), all or nothing under one key; half
     * the time the retry of one whose answer never came.
     */
    private void batch(ThreadLocalRandom random) {
        log.count(Operation.BATCH_ADJUST);
        ClientLog.Batch batch = halfTheTimeARetry(random, batchesToRetry, log.batches);
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

    @Override
    List<Step> steps() {
        return List.of(new Step(3, this::adjust), new Step(1, this::batch));
    }
}
