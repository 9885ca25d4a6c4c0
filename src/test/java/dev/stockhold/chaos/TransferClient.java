package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import dev.stockhold.chaos.ClientLog.Operation;

/**
 * A warehouse moving stock between locations: ships 1-2 units of a sku from default to WH-2 or WH-3, receives a unit
 * of a transfer it shipped, or cancels one; shipments and receipts retry their keys when no answer came.
 */
final class TransferClient extends FeatureClient {

    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<String> shipsToRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> receiptsToRetry = new ConcurrentLinkedDeque<>();
    private final Map<String, String> receiptOf = new ConcurrentHashMap<>();
    private final List<String> shipped = new CopyOnWriteArrayList<>();

    private void ship(ThreadLocalRandom random) {
        log.count(Operation.SHIP);
        String key = random.nextBoolean() ? shipsToRetry.pollFirst() : null;
        if (key == null) {
            key = "ship-" + UUID.randomUUID();
            bodies.put(key, "{\"sku\":\"" + skus.get(random.nextInt(skus.size())) + "\",\"from\":\"default\",\"to\":\""
                    + (random.nextBoolean() ? "WH-2" : "WH-3") + "\",\"quantity\":" + (1 + random.nextInt(2))
                    + ",\"expectedAt\":\"" + expectedAt() + "\"}");
        }
        String k = key;
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/transfers"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", k)
                .timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString(bodies.get(k))).build();
        sendKeyed(random, request, k, shipsToRetry, (response, body) -> {
            if (response.statusCode() == 201 && !response.headers().firstValue("Idempotent-Replayed").isPresent()) {
                shipped.add(body.path("id").asText());
            }
        });
    }

    private void receive(ThreadLocalRandom random) {
        log.count(Operation.RECEIVE_TRANSFER);
        String key = random.nextBoolean() ? receiptsToRetry.pollFirst() : null;
        if (key == null) {
            String transfer = anyOf(random, shipped);
            if (transfer == null) {
                return;
            }
            key = "receipt-" + UUID.randomUUID();
            receiptOf.put(key, transfer);
        }
        String k = key;
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/transfers/"
                + receiptOf.get(k) + "/receipts")).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Idempotency-Key", k).timeout(TIMEOUT).POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}")).build();
        sendKeyed(random, request, k, receiptsToRetry, (response, body) -> {
        });
    }

    private void cancel(ThreadLocalRandom random) {
        log.count(Operation.CANCEL_TRANSFER);
        String transfer = anyOf(random, shipped);
        if (transfer == null) {
            return;
        }
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/transfers/"
                + transfer + "/cancel")).header("Authorization", "Bearer " + token).timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        sendKeyed(random, request, transfer, new ConcurrentLinkedDeque<>(), (response, body) -> {
        });
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(2, this::ship), new Step(2, this::receive), new Step(1, this::cancel));
    }
}
