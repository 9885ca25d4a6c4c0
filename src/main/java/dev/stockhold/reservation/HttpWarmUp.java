package dev.stockhold.reservation;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * The HTTP half of {@link ReservationWarmUp}: the start's own requests to {@code POST /v1/availability} on its API
 * port, with a credential of its own ({@code WarmUpCredential}), so the HTTP server, the token's verification, the role
 * check, the body read, validation and the answer's writing are compiled before the first client arrives. The
 * availability check writes nothing; every request must be answered 200, or the warm-up stops.
 */
final class HttpWarmUp {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();
    private final IntSupplier port;
    private final String token;

    /** @param port the API port, read once the server listens (0 or less until then) */
    HttpWarmUp(IntSupplier port, String token) {
        this.port = port;
        this.token = token;
    }

    /**
     * Sends requests one after another until {@code deadline} ({@link System#nanoTime}).
     *
     * @param answered the count of answered requests, shared by every connection
     */
    void until(long deadline, AtomicLong answered, long seed) throws Exception {
        URI uri = null;
        for (long i = seed; System.nanoTime() < deadline; i++) {
            if (uri == null) {
                int p = port.getAsInt();
                if (p <= 0) {
                    Thread.sleep(20); // the server is not listening yet
                    continue;
                }
                uri = URI.create("http://127.0.0.1:" + p + "/v1/availability");
            }
            HttpResponse<String> answer;
            try {
                answer = client.send(request(uri, i), HttpResponse.BodyHandlers.ofString());
            } catch (ConnectException notYet) {
                Thread.sleep(20);
                continue;
            }
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("a warm-up request was answered " + answer.statusCode() + ": " + answer.body());
            }
            answered.incrementAndGet();
        }
    }

    private HttpRequest request(URI uri, long i) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":[" + ReservationWarmUp.lines(i) + "]}", StandardCharsets.UTF_8))
                .build();
    }
}
