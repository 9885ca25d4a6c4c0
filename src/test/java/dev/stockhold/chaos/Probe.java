package dev.stockhold.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** What an operator's probes see of a replica: its readiness and a read that needs the database. */
final class Probe {

    /** One answer: status (0: none), whether it carried {@code Retry-After}, and how long it took. */
    record Answer(int status, boolean retryAfter, long millis) {
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Probe() {
    }

    static Answer ready(Replica replica) {
        return send(HttpRequest.newBuilder(URI.create(replica.managementUrl() + "/q/health/ready")).timeout(Duration.ofSeconds(5))
                .build());
    }

    /** One page of one reservation: a read served from PostgreSQL. */
    static Answer read(Replica replica, String token) {
        return send(HttpRequest.newBuilder(URI.create(replica.baseUrl() + "/v1/reservations?limit=1"))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60)).build());
    }

    /** Waits until every replica is ready and answers the read with 200. */
    static void awaitServing(List<Replica> replicas, String token, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        for (Replica replica : replicas) {
            while (ready(replica).status() != 200 || read(replica, token).status() != 200) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(replica.name + " not serving within " + timeout + " after a fault");
                }
                Thread.sleep(100);
            }
        }
    }

    private static Answer send(HttpRequest request) {
        long start = System.nanoTime();
        try {
            HttpResponse<Void> response = HTTP.send(request, HttpResponse.BodyHandlers.discarding());
            return new Answer(response.statusCode(), response.headers().firstValue("Retry-After").isPresent(),
                    (System.nanoTime() - start) / 1_000_000);
        } catch (IOException e) {
            return new Answer(0, false, (System.nanoTime() - start) / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, false, (System.nanoTime() - start) / 1_000_000);
        }
    }
}
