package dev.stockhold.chaos;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import dev.stockhold.chaos.ClientLog.Operation;

/** Fulfilments and releases of one unit of a deferred reservation's line, under a new key each. */
final class SettlementClient extends FeatureClient {

    /**
     * A fulfilment or a release of one unit of one line of a reservation made with deferred fulfilment, under a new key:
     * before the confirm it is refused, and past what is committed it is over-fulfilment.
     */
    private void settle(ThreadLocalRandom random) {
        String action = random.nextInt(3) == 0 ? "release" : "fulfil";
        Settleable target = anyOf(random, made.deferredLines);
        if (target == null) {
            return;
        }
        log.count(Operation.SETTLE);
        String key = "settle-" + UUID.randomUUID();
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(
                URI.create(replica.baseUrl() + "/v1/reservations/" + target.id()
                        + ("fulfil".equals(action) ? "/fulfilments" : "/release")))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":[{\"sku\":\"" + target.sku() + "\",\"location\":\""
                        + target.location() + "\",\"quantity\":1}]}"))
                .build();
        HttpResponse<String> response = exchange(replica(random), request);
        log.settleAnswers
                .add(new ClientLog.SettleAnswer(key, target.id(), action, target.sku(), response == null ? 0 : response.statusCode(),
                        response == null ? null : slug(parse(response.body()))));
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(4, this::settle));
    }
}
