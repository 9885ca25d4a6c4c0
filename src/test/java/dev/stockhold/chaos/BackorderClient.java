package dev.stockhold.chaos;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Operation;

/**
 * A buyer and a shop around stock that is not on the shelf yet: purchase orders of 1-3 units of the first four skus to
 * WH-2 or WH-3 (each expected at a date of its own), backorder reservations of one unit there (the shelf first, then
 * supply not yet promised), receipts of one unit (some close the order: what it still promised moves on),
 * and cancels of waiting reservations, racing the receipts. Writes retry their keys when no answer came.
 */
final class BackorderClient extends FeatureClient {

    /** A keyed write: where it goes and its body, always the same under its key. */
    private record Write(String path, String json) {
    }

    private final Map<String, Write> writes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<String> ordersToRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> backordersToRetry = new ConcurrentLinkedDeque<>();
    private final ConcurrentLinkedDeque<String> receiptsToRetry = new ConcurrentLinkedDeque<>();
    private final List<String> orders = new CopyOnWriteArrayList<>();
    private final List<String> backorders = new CopyOnWriteArrayList<>();

    private String sku(ThreadLocalRandom random) {
        return skus.get(random.nextInt(Math.min(4, skus.size())));
    }

    private static String location(ThreadLocalRandom random) {
        return random.nextBoolean() ? "WH-2" : "WH-3";
    }

    private void order(ThreadLocalRandom random) {
        log.count(Operation.PURCHASE_ORDER);
        String key = random.nextBoolean() ? ordersToRetry.pollFirst() : null;
        if (key == null) {
            key = "po-" + UUID.randomUUID();
            writes.put(key, new Write("/v1/items/" + sku(random) + "/stock/" + location(random) + "/incoming",
                    "{\"quantity\":" + (1 + random.nextInt(3)) + ",\"expectedAt\":\"" + expectedAt() + "\"}"));
        }
        send(random, key, ordersToRetry, "purchase order", Set.of(), orders);
    }

    private void backorder(ThreadLocalRandom random) {
        log.count(Operation.BACKORDER);
        String key = random.nextBoolean() ? backordersToRetry.pollFirst() : null;
        if (key == null) {
            key = "backorder-" + UUID.randomUUID();
            log.featureKeys.add(key);
            writes.put(key, new Write("/v1/reservations", "{\"backorder\":\"allow\",\"lines\":[{\"sku\":\"" + sku(random)
                    + "\",\"quantity\":1,\"location\":\"" + location(random) + "\"}]}"));
        }
        // a named location where the sku has no record yet (no order or transfer went there) is unknown-sku
        send(random, key, backordersToRetry, "backorder", Set.of("insufficient-stock", "unknown-sku"), backorders);
    }

    private void receive(ThreadLocalRandom random) {
        log.count(Operation.RECEIVE_ORDER);
        String key = random.nextBoolean() ? receiptsToRetry.pollFirst() : null;
        if (key == null) {
            String order = anyOf(random, orders);
            if (order == null) {
                return;
            }
            key = "po-receipt-" + UUID.randomUUID();
            // one in four closes the order with this unit, one in eight with none: what it still promised moves on
            int dice = random.nextInt(8);
            writes.put(key, new Write("/v1/purchase-orders/" + order + "/receipts", dice == 0 ? "{\"quantity\":0,\"close\":true}"
                    : dice < 3 ? "{\"quantity\":1,\"close\":true}" : "{\"quantity\":1}"));
        }
        send(random, key, receiptsToRetry, "purchase receipt", Set.of("over-receipt", "invalid-purchase-order-state"), null);
    }

    private void cancel(ThreadLocalRandom random) {
        log.count(Operation.CANCEL_BACKORDER);
        String id = anyOf(random, backorders);
        if (id == null) {
            return;
        }
        var response = exchange(replica(random), action("/v1/reservations/" + id + "/cancel"));
        if (response != null) {
            expect("cancel of backorder " + id, response, parse(response.body()), Set.of("invalid-reservation-state"));
        }
    }

    /** Sends the write of {@code key}; a 201 that is not a replay adds the id it made to {@code made}. */
    private void send(ThreadLocalRandom random, String key, ConcurrentLinkedDeque<String> retries, String what, Set<String> refusals,
            List<String> made) {
        Write write = writes.get(key);
        sendKeyed(random, keyed(write.path(), key, write.json()), key, retries, (response, body) -> {
            expect(what + " " + key + " " + write, response, body, refusals);
            if (made != null && response.statusCode() == 201 && !replayed(response)) {
                made.add(idOf(body));
            }
        });
    }

    private static String idOf(JsonNode body) {
        return body.path("id").asText();
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(2, this::order), new Step(3, this::backorder), new Step(2, this::receive), new Step(1, this::cancel));
    }
}
