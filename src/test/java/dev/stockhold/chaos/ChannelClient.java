package dev.stockhold.chaos;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;

import dev.stockhold.chaos.ClientLog.Operation;

/**
 * A shop that sells through sales channels: b2b sells from WH-2 then default, outlet from WH-3 then WH-2. It reserves 1-2
 * units of a sku through one of them, whole, split or partial, and retries its keys when no answer came. What it makes
 * joins the reservations the lifecycle and edit clients act on, so an edit of a channel reservation is tried too.
 */
final class ChannelClient extends FeatureClient {

    /** The channels the run sells through, and their locations in allocation order. */
    static final Map<String, List<String>> CHANNELS = Map.of("b2b", List.of("WH-2", "default"), "outlet", List.of("WH-3", "WH-2"));

    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<String> toRetry = new ConcurrentLinkedDeque<>();

    @Override
    void prepare(Replica replica) throws IOException, InterruptedException {
        // after default (priority 100) in location order, so the clients that name no channel still start at default
        put(replica, "/v1/locations/WH-2", "{\"priority\":200}");
        put(replica, "/v1/locations/WH-3", "{\"priority\":300}");
        for (Map.Entry<String, List<String>> channel : CHANNELS.entrySet()) {
            put(replica, "/v1/channels/" + channel.getKey(),
                    "{\"locations\":[\"" + String.join("\",\"", channel.getValue()) + "\"]}");
        }
    }

    private void reserve(ThreadLocalRandom random) {
        log.count(Operation.CHANNEL_RESERVE);
        String key = random.nextBoolean() ? toRetry.pollFirst() : null;
        if (key == null) {
            key = "channel-" + UUID.randomUUID();
            log.featureKeys.add(key);
            String allocation = switch (random.nextInt(3)) {
                case 0 -> "";
                case 1 -> "\"allocation\":\"split\",";
                default -> "\"allocation\":\"partial\",";
            };
            bodies.put(key, "{\"channel\":\"" + (random.nextBoolean() ? "b2b" : "outlet") + "\"," + allocation + "\"lines\":[{\"sku\":\""
                    + skus.get(random.nextInt(skus.size())) + "\",\"quantity\":" + (1 + random.nextInt(2)) + "}]}");
        }
        String k = key;
        sendKeyed(random, keyed("/v1/reservations", k, bodies.get(k)), k, toRetry, (response, body) -> {
            // a sku with no record at any of the channel's locations is unknown there, as at a named location without one
            expect("channel reservation " + k, response, body, Set.of("insufficient-stock", "unknown-sku"));
            if (response.statusCode() == 201 && !replayed(response)) {
                made.ids.add(body.path("id").asText());
            }
        });
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(3, this::reserve));
    }
}
