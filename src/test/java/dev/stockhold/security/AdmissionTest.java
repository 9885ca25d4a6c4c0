package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.RawHttp;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;

/**
 * Who takes a place in the replica, and when: a reservation limit of one and a tenant limit of one, so every place is
 * visible. The body is read whole before any place is taken, over HTTP/2 too; the token is checked before; the
 * tenant's limit before the replica's; one path for the router and the API; bodies that trickle are cut at the read
 * timeout with 408, over HTTP/1.1 and HTTP/2; HTTP/2 bodies over the size limit get a 413 problem.
 */
@QuarkusTest
@TestProfile(AdmissionTest.LimitOfOne.class)
class AdmissionTest {

    public static class LimitOfOne implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.limits.adaptive-reservations", "true",
                    "stockhold.limits.reservations-initial-limit", "1",
                    "stockhold.limits.reservations-max-limit", "1",
                    "stockhold.limits.per-tenant-concurrency", "1",
                    "stockhold.limits.body-read-timeout", "2s",
                    // the request parked on a row lock keeps its places while the test looks
                    "stockhold.idempotency.in-flight-wait", "8s");
        }
    }

    @Inject
    DataSource dataSource;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Inject
    io.vertx.core.Vertx vertx;

    @Inject
    dev.stockhold.reservation.ReservationAdmission admission;

    private final HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();

    @Test
    void shouldNotLetASlowHttp2UploadHoldTheReservationSlot() throws Exception {
        Api slow = Api.newTenant();
        Api other = Api.newTenant();
        String sku = Api.sku();
        slow.setStock(sku, 5);
        other.setStock(sku, 5);
        upgradeToHttp2(slow);
        String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}";
        Gate gate = new Gate(body.getBytes(StandardCharsets.UTF_8), 0);

        CompletableFuture<HttpResponse<String>> uploading = http2.sendAsync(request("/v1/reservations", slow)
                .header("Idempotency-Key", Api.key()).POST(HttpRequest.BodyPublishers.fromPublisher(gate, gate.length()))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(gate.requested.await(10, TimeUnit.SECONDS)).as("the slow request's headers are out").isTrue();

        // the slot (limit 1) and tenant places are free while the slow body has not arrived
        other.reserve(Api.key(), sku, 1).then().statusCode(201);
        // its place is given back once the answer is written, a moment after the client may have read it
        Eventually.await(Duration.ofSeconds(5), "the other tenant's place given back", () -> admission.inFlight() == 0);
        gate.open();
        HttpResponse<String> uploaded = uploading.get(30, TimeUnit.SECONDS);
        assertThat(uploaded.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
    }

    @Test
    void shouldCheckTheTokenThenTheTenantThenTheReplicaOnOnePath() throws Exception {
        Db db = new Db(dataSource);
        Api parked = Api.newTenant();
        Api other = Api.newTenant();
        String sku = Api.sku();
        parked.setStock(sku, 5);
        other.setStock(sku, 5);
        String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}";
        Db.Parked holding;
        // the parked request holds the replica's only slot and its tenant's only place
        try (Db.Parked held = db.parkReservation(parked, sku)) {
            holding = held;

            // no valid token: 401, never a place
            given().contentType(ContentType.JSON).header("Idempotency-Key", Api.key()).body(body).post("/v1/reservations")
                    .then().statusCode(401).body("type", equalTo("/problems/unauthorized"));
            given().auth().oauth2("not-a-token").contentType(ContentType.JSON).header("Idempotency-Key", Api.key()).body(body)
                    .post("/v1/reservations").then().statusCode(401);
            // the same tenant: its own limit answers first
            parked.reserve(Api.key(), sku, 1).then().statusCode(429).body("type", equalTo("/problems/too-many-requests"))
                    .header("Retry-After", "1");
            // another tenant: the replica's limit
            other.reserve(Api.key(), sku, 1).then().statusCode(503).header("Retry-After", "1")
                    .body("detail", org.hamcrest.Matchers.containsString("concurrency limit"));
            // every other spelling of the path is refused before any limit (dev.stockhold.web.RequestFraming), or meets it:
            // byte for byte, so no client normalises it on the way (//v1/reservations;x=1 once reserved here)
            for (String spelling : new String[]{ "//v1/reservations;x=1", "/./v1/reservations;x=1", "/%76%31/reservations;x=1",
                    "/x/../v1/reservations;", "/v1/reservations;x=1", "/v1//reservations", "/v1/./reservations",
                    "/v1/%72eservations", "/v1/x/../reservations" }) {
                assertThat(raw(spelling, other, body)).as(spelling).startsWith("HTTP/1.1 400")
                        .contains("/problems/validation-failed").contains("\"field\":\"path\"");
            }
            // a percent-escape the router cannot decode is refused by Vert.x' router itself, before any route runs
            assertThat(raw("/v1/reservations%zz", other, body)).startsWith("HTTP/1.1 400");
            for (String spelling : new String[]{ "/v1/reservations", "/v1/reservations/", "/v1/reservations?x=1" }) {
                assertThat(raw(spelling, other, body)).as(spelling).startsWith("HTTP/1.1 503");
            }
            assertThat(db.reservationsOfTenant(other.tenant())).isZero();
        }
        assertThat(holding.status().get(30, TimeUnit.SECONDS)).isEqualTo(201);
        Eventually.await(Duration.ofSeconds(5), "the parked request's place given back", () -> admission.inFlight() == 0);
        other.reserve(Api.key(), sku, 1).then().statusCode(201);
    }

    @Test
    void shouldCutAnHttp11BodyThatTricklesWithA408() throws Exception {
        Api api = Api.newTenant();
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/reservations HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Tokens.allRoles(api.tenant())
                    + "\r\nContent-Type: application/json\r\nIdempotency-Key: trickle\r\nContent-Length: 100\r\n\r\n{\"li")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = RawHttp.readAll(socket.getInputStream()).toString(StandardCharsets.UTF_8);

            assertThat(answer).startsWith("HTTP/1.1 408").contains("application/problem+json").contains("/problems/request-timeout");
        }
        assertThat(new Db(dataSource).idempotencyRecordsOfTenant(api.tenant())).isZero();
    }

    /**
     * Vert.x' client here: it reads an answer that comes before its body is sent (the JDK's client waits to finish
     * sending first, which a body that never finishes never does).
     */
    @Test
    void shouldCutAnHttp2BodyThatTricklesWithA408() throws Exception {
        Api api = Api.newTenant();
        io.vertx.core.http.HttpClient client = vertx.createHttpClient(new io.vertx.core.http.HttpClientOptions()
                .setProtocolVersion(io.vertx.core.http.HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false));
        try {
            String answer = client.request(io.vertx.core.http.HttpMethod.POST, port, "localhost", "/v1/reservations")
                    .compose(request -> {
                        request.putHeader("Authorization", "Bearer " + Tokens.allRoles(api.tenant()))
                                .putHeader("Content-Type", "application/json").putHeader("Idempotency-Key", Api.key())
                                .putHeader("Content-Length", "100");
                        request.write("{\"li"); // and nothing more
                        return request.response();
                    })
                    .compose(response -> response.body().map(body -> response.version() + " " + response.statusCode() + " " + body))
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

            assertThat(answer).startsWith("HTTP_2 408").contains("/problems/request-timeout");
        } finally {
            client.close();
        }
        assertThat(new Db(dataSource).idempotencyRecordsOfTenant(api.tenant())).isZero();
    }

    @Test
    void shouldAnswerAnOversizeOrUnsizedHttp2BodyWithAProblem() throws Exception {
        Api api = Api.newTenant();
        upgradeToHttp2(api);
        String huge = "{\"lines\":[{\"sku\":\"X\",\"quantity\":1}],\"pad\":\"" + "x".repeat(70_000) + "\"}";

        HttpResponse<String> tooLarge = http2.send(request("/v1/reservations", api).header("Idempotency-Key", Api.key())
                .POST(HttpRequest.BodyPublishers.ofString(huge)).build(), HttpResponse.BodyHandlers.ofString());
        Gate unsized = new Gate("{\"lines\":[{\"sku\":\"X\",\"quantity\":1}]}".getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
        HttpResponse<String> noLength = http2.send(request("/v1/reservations", api).header("Idempotency-Key", Api.key())
                .POST(HttpRequest.BodyPublishers.fromPublisher(unsized)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);
        assertThat(tooLarge.body()).contains("/problems/payload-too-large");
        assertThat(noLength.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(noLength.statusCode()).as(noLength.body()).isEqualTo(411);
        assertThat(noLength.body()).contains("/problems/length-required");
    }

    /** The JDK client speaks HTTP/2 on plain HTTP after an h2c upgrade on its first request to the server. */
    private void upgradeToHttp2(Api api) throws Exception {
        HttpResponse<String> first = http2.send(request("/v1/locations", api).GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> second = http2.send(request("/v1/locations", api).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(second.version()).as("the connection speaks HTTP/2").isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(first.statusCode()).isEqualTo(200);
    }

    private String raw(String path, Api api, String body) throws Exception {
        return RawHttp.exchange(port, RawHttp.request("POST", path, api.tenant(), body, Map.of("Idempotency-Key", Api.key())));
    }

    private HttpRequest.Builder request(String path, Api api) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Bearer " + Tokens.allRoles(api.tenant())).header("Content-Type", "application/json");
    }

    /** A body publisher that sends its first {@code now} bytes at once and the rest when opened. */
    private static final class Gate implements Flow.Publisher<ByteBuffer> {
        final CountDownLatch requested = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);
        private final byte[] body;
        private final int now;

        Gate(byte[] body, int now) {
            this.body = body;
            this.now = Math.min(now, body.length);
        }

        long length() {
            return body.length;
        }

        void open() {
            opened.countDown();
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                private boolean started;

                @Override
                public void request(long n) {
                    if (started) {
                        return;
                    }
                    started = true;
                    requested.countDown();
                    Thread sender = new Thread(() -> {
                        if (now > 0) {
                            subscriber.onNext(ByteBuffer.wrap(body, 0, now));
                        }
                        if (now < body.length) {
                            try {
                                if (!opened.await(60, TimeUnit.SECONDS)) {
                                    return; // never sent: the server must have given up on it
                                }
                            } catch (InterruptedException e) {
                                return;
                            }
                            subscriber.onNext(ByteBuffer.wrap(body, now, body.length - now));
                        }
                        subscriber.onComplete();
                    });
                    sender.setDaemon(true);
                    sender.start();
                }

                @Override
                public void cancel() {
                    opened.countDown();
                }
            });
        }
    }
}
