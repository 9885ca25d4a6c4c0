package dev.stockhold.chaos;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

import dev.stockhold.chaos.ClientLog.Operation;

/**
 * A shop selling kits: KIT-A (one of the first sku, two of the second) and KIT-B (one of the second sku, one of the hot
 * one), which share a component. It reserves a kit alone, both kits in one request, or KIT-B with a line of the shared
 * component (whole or split), retries keys that got no answer, and confirms or cancels what it made. The hot sku runs
 * out during the run, so kit requests are refused too.
 */
final class KitClient extends FeatureClient {

    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<String> toRetry = new ConcurrentLinkedDeque<>();
    private final List<String> kitReservations = new CopyOnWriteArrayList<>();

    @Override
    void prepare(Replica replica) throws IOException, InterruptedException {
        put(replica, "/v1/kits/KIT-A", "{\"components\":[{\"sku\":\"" + skus.get(0) + "\",\"quantity\":1},{\"sku\":\"" + skus.get(1)
                + "\",\"quantity\":2}]}");
        put(replica, "/v1/kits/KIT-B", "{\"components\":[{\"sku\":\"" + skus.get(1) + "\",\"quantity\":1},{\"sku\":\""
                + skus.get(skus.size() - 1) + "\",\"quantity\":1}]}");
    }

    private void reserve(ThreadLocalRandom random) {
        log.count(Operation.KIT_RESERVE);
        String key = random.nextBoolean() ? toRetry.pollFirst() : null;
        if (key == null) {
            key = "kit-" + UUID.randomUUID();
            log.featureKeys.add(key);
            String lines = switch (random.nextInt(3)) {
                case 0 -> line("KIT-A", 1 + random.nextInt(2));
                case 1 -> line("KIT-A", 1) + "," + line("KIT-B", 1);
                default -> line("KIT-B", 1) + "," + line(skus.get(1), 1);
            };
            bodies.put(key, "{" + (random.nextInt(3) == 0 ? "\"allocation\":\"split\"," : "") + "\"lines\":[" + lines + "]}");
        }
        String k = key;
        sendKeyed(random, keyed("/v1/reservations", k, bodies.get(k)), k, toRetry, (response, body) -> {
            expect("kit reservation " + k + " " + bodies.get(k), response, body, Set.of("insufficient-stock"));
            if (response.statusCode() == 201 && !replayed(response)) {
                kitReservations.add(body.path("id").asText());
            }
        });
    }

    private void settle(ThreadLocalRandom random) {
        String id = anyOf(random, kitReservations);
        if (id == null) {
            return;
        }
        boolean confirm = random.nextBoolean();
        log.count(confirm ? Operation.CONFIRM : Operation.CANCEL);
        var response = exchange(replica(random), action("/v1/reservations/" + id + (confirm ? "/confirm" : "/cancel")));
        if (response != null) {
            expect((confirm ? "confirm" : "cancel") + " of kit reservation " + id, response, parse(response.body()),
                    Set.of("invalid-reservation-state"));
        }
    }

    private static String line(String sku, int quantity) {
        return "{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}";
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(3, this::reserve), new Step(1, this::settle));
    }
}
