package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * JSON bodies are UTF-8 only: the same reservation encoded UTF-16 or UTF-32 (where the parser would decode by its own
 * rules, and a NUL or a lone surrogate once reached the database or the fingerprint) is 415 before parsing, and nothing
 * is stored.
 */
@QuarkusTest
class BodyEncodingTest {

    @Inject
    DataSource dataSource;

    @ParameterizedTest
    @ValueSource(strings = { "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE" })
    void shouldRefuseABodyInAnotherEncoding(String encoding) {
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 5);
        String key = Api.key();
        for (String reference : new String[]{ "a\\u0000b", "plain", "a\ud800b" }) {
            String body = "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"reference\":\"" + reference + "\"}";
            byte[] bytes = body.getBytes(Charset.forName(encoding));

            api.request().contentType(ContentType.JSON).header("Idempotency-Key", key).body(bytes).post("/v1/reservations")
                    .then().statusCode(415).contentType("application/problem+json")
                    .body("type", equalTo("/problems/unsupported-media-type"));
        }
        assertThat(new Db(dataSource).idempotencyRecordsOfTenant(api.tenant())).isZero();
        assertThat(new Db(dataSource).reservationsOfTenant(api.tenant())).isZero();
    }

    @ParameterizedTest
    @ValueSource(
            strings = { "application/json; charset=utf-16", "application/json;charset=\"UTF-32\"", "application/json; charset=latin1" })
    void shouldRefuseACharsetOtherThanUtf8(String contentType) {
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 5);
        api.request().contentType(contentType).header("Idempotency-Key", Api.key())
                .body(("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").getBytes(StandardCharsets.UTF_8))
                .post("/v1/reservations").then().statusCode(415).body("type", equalTo("/problems/unsupported-media-type"));
        api.request().contentType("application/json; charset=utf-8").header("Idempotency-Key", Api.key())
                .body(("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").getBytes(StandardCharsets.UTF_8))
                .post("/v1/reservations").then().statusCode(201);
        assertThat(new Db(dataSource).reservationsOfTenant(api.tenant())).isEqualTo(1);
    }
}
