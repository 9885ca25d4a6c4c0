package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.reservation.ReservationAdmission;
import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.ServerLog;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;

/**
 * One tenant's HTTP/2 connection that stops reading, or never ends its streams, holds none of the replica's places: a
 * real h2c client (Vert.x, prior knowledge) against the running service, with a reservation limit of 4 and a tenant limit of 4, so
 * four stuck streams would fill either.
 */
@QuarkusTest
@TestProfile(Http2StallTest.SmallLimits.class)
class Http2StallTest {

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.limits.adaptive-reservations", "true",
                    "stockhold.limits.reservations-initial-limit", "4",
                    "stockhold.limits.reservations-max-limit", "4",
                    "stockhold.limits.per-tenant-concurrency", "4",
                    "stockhold.limits.response-write-timeout", "3s",
                    "stockhold.limits.body-read-timeout", "20s");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Inject
    Vertx vertx;

    @Inject
    DataSource dataSource;

    @Inject
    ReservationAdmission admission;

    /** Answers committed but never read (receive window 0, kept alive): the others' reservations go on. */
    @Test
    void shouldNotLetAnUnreadAnswerHoldTheReplicasPlaces() throws Exception {
        Api stalled = Api.newTenant();
        Api other = Api.newTenant();
        String sku = Api.sku();
        stalled.setStock(sku, 100);
        other.setStock(sku, 100);
        HttpClient client = h2c(new Http2Settings().setInitialWindowSize(0));
        ServerLog log = ServerLog.open();
        try {
            String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}";
            List<CompletableFuture<Integer>> stuck = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                stuck.add(send(client, stalled, body, body.length()));
            }
            Eventually.await(Duration.ofSeconds(10), "the stalled tenant's 4 reservations committed",
                    () -> new Db(dataSource).reservationsOfTenant(stalled.tenant()) == 4);

            // their answers are queued behind a zero window, yet the replica's places (limit 4) are free
            Eventually.await(Duration.ofSeconds(5), "the replica's places given back as the answers are handed over",
                    () -> admission.inFlight() == 0);
            other.reserve(Api.key(), sku, 1).then().statusCode(201);
            // the stalled tenant's own places stay taken until the write timeout cuts its streams
            stalled.reserve(Api.key(), sku, 1).then().statusCode(429);
            Eventually.await(Duration.ofSeconds(10), "the unread streams cut by the write timeout",
                    () -> stuck.stream().allMatch(CompletableFuture::isDone));
            stalled.reserve(Api.key(), sku, 1).then().statusCode(201);
            // a cut stream is the client's doing, logged at DEBUG: no server ERROR, no stack trace
            assertThat(log.errors()).extracting(java.util.logging.LogRecord::getMessage).isEmpty();
        } finally {
            log.close();
            client.close();
        }
    }

    /** {@code content-length: 0} and no END_STREAM: answered at once, no place waits for the stream's end. */
    @Test
    void shouldAnswerADeclaredEmptyBodyWithoutWaitingForTheStreamsEnd() throws Exception {
        Api open = Api.newTenant();
        Api other = Api.newTenant();
        String sku = Api.sku();
        other.setStock(sku, 5);
        HttpClient client = h2c(new Http2Settings());
        try {
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                answers.add(send(client, open, null, 0));
            }
            for (CompletableFuture<Integer> answer : answers) {
                assertThat(answer.get(5, TimeUnit.SECONDS)).as("an empty body is malformed, answered at once").isEqualTo(400);
            }
            other.reserve(Api.key(), sku, 1).then().statusCode(201);
            assertThat(new Db(dataSource).idempotencyRecordsOfTenant(open.tenant())).isZero();
        } finally {
            client.close();
        }
    }

    /**
     * A POST whose headers declare the length: with a body, it is sent and the stream ended; without one, the headers
     * go out without END_STREAM and the stream is left open. Completes with the status, or exceptionally when the stream
     * is reset.
     */
    private CompletableFuture<Integer> send(HttpClient client, Api api, String body, int length) {
        Future<Integer> status = client.request(HttpMethod.POST, port, "localhost", "/v1/reservations").compose(request -> {
            request.putHeader("Authorization", "Bearer " + Tokens.allRoles(api.tenant()))
                    .putHeader("Content-Type", "application/json").putHeader("Idempotency-Key", Api.key())
                    .putHeader("Content-Length", Integer.toString(length));
            // complete once the whole answer has been read: a zero window lets the headers through, not the body
            Future<Integer> answer = request.response().compose(response -> response.body().map(read -> response.statusCode()));
            if (body != null) {
                request.end(body);
            } else {
                sendHeadOnly(request);
            }
            return answer;
        });
        return status.toCompletionStage().toCompletableFuture();
    }

    /** An HTTP/2 client over plain TCP with prior knowledge (no upgrade), announcing these settings. */
    private HttpClient h2c(Http2Settings settings) {
        return vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
                .setInitialSettings(settings));
    }

    private static void sendHeadOnly(HttpClientRequest request) {
        request.sendHead();
    }
}
