package dev.stockhold.chaos;

import java.io.IOException;
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

    SettlementClient(Context context) {
        super(context);
    }

    @Override
    List<Step> steps() {
        return List.of(new Step(4, this::settle));
    }

    /**
     * A fulfilment or a release of one unit of one line of a reservation made with deferred fulfilment, under a new key:
     * before the confirm it is refused, and past what is committed it is over-fulfilment.
     */
    private void settle(ThreadLocalRandom random) {
        if (made.deferredLines.isEmpty()) {
            return;
        }
        log.count(Operation.SETTLE);
        Settleable target = made.deferredLines.get(random.nextInt(made.deferredLines.size()));
        String action = random.nextInt(3) == 0 ? "release" : "fulfil";
        String key = "settle-" + UUID.randomUUID();
        Function<Replica, HttpRequest> request = replica -> HttpRequest.newBuilder(
                URI.create(replica.baseUrl() + "/v1/reservations/" + target.id()
                        + ("fulfil".equals(action) ? "/fulfilments" : "/release")))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").header("Idempotency-Key", key)
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":[{\"sku\":\"" + target.sku() + "\",\"location\":\""
                        + target.location() + "\",\"quantity\":1}]}"))
                .build();
        Replica replica = replica(random);
        try {
            HttpResponse<String> response = send(request.apply(replica), replica, request);
            log.answered(response.statusCode());
            log.settleAnswers.add(new ClientLog.SettleAnswer(key, target.id(), action, target.sku(), response.statusCode(),
                    slug(parse(response.body()))));
        } catch (IOException e) {
            log.noAnswer.increment();
            log.settleAnswers.add(new ClientLog.SettleAnswer(key, target.id(), action, target.sku(), 0, null));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
