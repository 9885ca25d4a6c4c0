package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * Every request is addressed and framed in one way before any limit or route sees it (RequestFraming), sent byte for
 * byte over a socket so no client normalises anything on the way.
 */
@QuarkusTest
@TestProfile(RequestFramingTest.LimitOfOne.class)
class RequestFramingTest {

    public static class LimitOfOne implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.limits.adaptive-reservations", "true",
                    "stockhold.limits.reservations-initial-limit", "1",
                    "stockhold.limits.reservations-max-limit", "1",
                    "stockhold.idempotency.in-flight-wait", "8s");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Inject
    DataSource dataSource;

    /** With the reservation limit full, no spelling of the path reserves: each is refused before the limit or served by it. */
    @Test
    void shouldJudgeTheLimitAndTheRouteOnOneNormalisedPath() throws Exception {
        Db db = new Db(dataSource);
        Api parked = Api.newTenant();
        Api other = Api.newTenant();
        String sku = Api.sku();
        parked.setStock(sku, 5);
        other.setStock(sku, 5);
        String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}";
        Db.Parked holding;
        try (Db.Parked held = db.parkReservation(parked, sku)) {
            holding = held;

            for (String spelling : new String[]{ "//v1/reservations;x=1", "/./v1/reservations;x=1", "/%76%31/reservations;x=1",
                    "/x/../v1/reservations;", "/v1/reservations;x=1", "/v1//reservations", "/v1/./reservations",
                    "/v1/%72eservations", "/v1/x/../reservations" }) {
                String answer = send(raw("POST", spelling, other.tenant(), body, Map.of("Idempotency-Key", Api.key())));
                assertThat(answer).as(spelling).startsWith("HTTP/1.1 400").contains("/problems/validation-failed")
                        .contains("\"field\":\"path\"");
            }
            // a percent-escape the router cannot decode is refused by Vert.x' router itself, before any route runs
            assertThat(send(raw("POST", "/v1/reservations%zz", other.tenant(), body, Map.of("Idempotency-Key", Api.key()))))
                    .startsWith("HTTP/1.1 400");
            for (String spelling : new String[]{ "/v1/reservations", "/v1/reservations/", "/v1/reservations?x=1" }) {
                String answer = send(raw("POST", spelling, other.tenant(), body, Map.of("Idempotency-Key", Api.key())));
                assertThat(answer).as(spelling).startsWith("HTTP/1.1 503");
            }
            assertThat(db.reservationsOfTenant(other.tenant())).isZero();
        }
        assertThat(holding.status().get(30, TimeUnit.SECONDS)).isEqualTo(201);
    }

    /** A body under an unknown coding is a second request smuggled in: refused, and the connection closed before it runs. */
    @Test
    void shouldCloseTheConnectionOnAnUnknownTransferCoding() throws Exception {
        Api attacker = Api.newTenant();
        Api victim = Api.newTenant();
        String settings = "{\"maxLineQuantity\":7,\"maxHeldPerReference\":3}";
        String smuggled = raw("PUT", "/v1/settings", victim.tenant(), settings, Map.of());
        String request = "PUT /v1/settings HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Tokens.allRoles(attacker.tenant())
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n" + smuggled;

        String answer = send(request);

        assertThat(answer).startsWith("HTTP/1.1 400").contains("Transfer-Encoding").contains("/problems/validation-failed")
                .doesNotContain("HTTP/1.1 200");
        victim.request().get("/v1/settings").then().statusCode(200)
                .body("maxLineQuantity", org.hamcrest.Matchers.not(org.hamcrest.Matchers.equalTo(7)));
        for (String coding : new String[]{ "chunked, identity", "gzip", "chunked\u000b" }) {
            String other = "POST /v1/reservations HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: " + coding + "\r\n\r\n0\r\n\r\n";
            assertThat(send(other)).as(coding).startsWith("HTTP/1.1 400");
        }
    }

    private static String raw(String method, String path, String tenant, String body, Map<String, String> headers) {
        StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + Tokens.allRoles(tenant) + "\r\nContent-Type: application/json\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return request.append("Content-Length: ").append(bytes.length).append("\r\n\r\n").append(body).toString();
    }

    /** Sends the bytes and reads until the server closes the connection (or 10 s pass): every answer it gave. */
    private String send(String request) throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.write("GET /v1/settings HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) >= 0;) {
                    all.write(buffer, 0, n);
                }
            } catch (java.net.SocketException | java.net.SocketTimeoutException e) {
                // reset or silent after the answer: what was read is the answer
            }
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
