package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Operation;

/** Edits of held reservations' lines, at the version just read (If-Match), under a new key each. */
final class EditClient extends FeatureClient {

    /**
     * An edit of a reservation's lines at the version just read: the first line one unit more or less. Stale by the
     * time it lands, past its hold, or short of stock, it is refused and changes nothing.
     */
    private void edit(ThreadLocalRandom random) {
        String id = anyOf(random, made.ids);
        if (id == null) {
            return;
        }
        log.count(Operation.EDIT);
        Replica replica = replica(random);
        Function<Replica, HttpRequest> read = r -> HttpRequest.newBuilder(URI.create(r.baseUrl() + "/v1/reservations/" + id))
                .header("Authorization", "Bearer " + token).timeout(TIMEOUT).GET().build();
        HttpResponse<String> current = exchange(replica, read);
        JsonNode body = current == null ? null : parse(current.body());
        if (current == null || current.statusCode() != 200 || !"HELD".equals(body.path("status").asText())) {
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
        HttpResponse<String> response = exchange(replica, patch);
        log.editAnswers.add(new ClientLog.EditAnswer(key, id, lines, response == null ? 0 : response.statusCode(),
                response == null ? null : slug(parse(response.body()))));
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(2, this::edit));
    }
}
