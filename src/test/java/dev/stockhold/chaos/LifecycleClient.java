package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Operation;

/** Confirms, cancels and extends of reservations the clients made, whatever their status by then. */
final class LifecycleClient extends FeatureClient {

    private void transition(String action, ThreadLocalRandom random) {
        String id = anyOf(random, made.ids);
        if (id == null) {
            return;
        }
        log.count(switch (action) {
            case "confirm" -> Operation.CONFIRM;
            case "cancel" -> Operation.CANCEL;
            default -> Operation.EXTEND;
        });
        // an extend asks for 5-10 minutes more: within the maximum hold, and longer than the run
        HttpRequest.BodyPublisher payload = "extend".equals(action)
                ? HttpRequest.BodyPublishers.ofString("{\"ttlSeconds\":" + (300 + random.nextInt(300)) + "}")
                : HttpRequest.BodyPublishers.noBody();
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(
                URI.create(replica.baseUrl() + "/v1/reservations/" + id + "/" + action))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").timeout(TIMEOUT)
                .POST(payload).build();
        HttpResponse<String> response = exchange(replica(random), request);
        if (response != null) {
            JsonNode body = parse(response.body());
            log.transitionAnswers.add(new ClientLog.TransitionAnswer(id, action, response.statusCode(),
                    response.statusCode() == 200 ? body.path("status").asText() : null, slug(body)));
        }
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(12, r -> transition("confirm", r)), new Step(10, r -> transition("cancel", r)),
                new Step(3, r -> transition("extend", r)));
    }
}
