package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Clients that speak HTTP/2 (the JDK's HttpClient does by default: an h2c upgrade on plain HTTP) send bodies too.
 * Found by the chaos run: every HTTP/2 request with a body answered 500 while API bodies were buffered for HTTP/1.1.
 */
@QuarkusTest
class Http2ClientTest {

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();

    @Test
    void shouldSetStockAndReserveOverHttp2() throws Exception {
        Api api = Api.newTenant();
        String token = Tokens.allRoles(api.tenant());

        HttpResponse<String> stock = http.send(request("/v1/items/H2-1", token)
                .PUT(HttpRequest.BodyPublishers.ofString("{\"available\":5}")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> reserved = http.send(request("/v1/reservations", token).header("Idempotency-Key", Api.key())
                .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":[{\"sku\":\"H2-1\",\"quantity\":2}]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> bad = http.send(request("/v1/reservations", token).header("Idempotency-Key", Api.key())
                .POST(HttpRequest.BodyPublishers.ofString("{\"lines\":")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(stock.statusCode()).as(stock.body()).isEqualTo(200);
        assertThat(reserved.statusCode()).as(reserved.body()).isEqualTo(201);
        assertThat(bad.statusCode()).as(bad.body()).isEqualTo(400);
        assertThat(bad.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        api.request().get("/v1/items/H2-1").then().statusCode(200).body("available", org.hamcrest.Matchers.equalTo(3));
    }

    private HttpRequest.Builder request(String path, String token) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json");
    }
}
