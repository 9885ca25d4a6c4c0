package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.stream.Stream;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Every malformed body, header or key: a 4xx problem naming what is wrong, and nothing stored. */
@QuarkusTest
class BadInputTest {

    static final String SKU = "BAD-INPUT-SKU";

    @Inject
    DataSource dataSource;

    Db db;
    Api api;

    @BeforeEach
    void setUp() {
        db = new Db(dataSource);
        api = Api.newTenant();
        api.setStock(SKU, 10);
    }

    static Stream<Arguments> badBodies() {
        String line = "{\"sku\":\"" + SKU + "\",\"quantity\":1}";
        return Stream.of(
                Arguments.of("not JSON", "lines: 1", "malformed-request", null),
                Arguments.of("truncated JSON", "{\"lines\":[" + line, "malformed-request", null),
                Arguments.of("trailing garbage", "{\"lines\":[" + line + "]} x", "malformed-request", null),
                Arguments.of("empty body", "", "malformed-request", null),
                Arguments.of("deeply nested", "[".repeat(5000) + "]".repeat(5000), "malformed-request", null),
                Arguments.of("JSON array", "[" + line + "]", "validation-failed", "body"),
                Arguments.of("JSON null", "null", "validation-failed", "body"),
                Arguments.of("no lines", "{}", "validation-failed", "lines"),
                Arguments.of("empty lines", "{\"lines\":[]}", "validation-failed", "lines"),
                Arguments.of("null line", "{\"lines\":[null]}", "validation-failed", "lines[0]"),
                Arguments.of("quantity as string", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":\"1\"}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity fraction", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1.5}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity 1.0", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1.0}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity zero", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":0}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity negative", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":-1}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity too large", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1000001}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity overflows int", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":99999999999999999999999}]}",
                        "validation-failed", "lines[0].quantity"),
                Arguments.of("quantity boolean", "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":true}]}", "validation-failed",
                        "lines[0].quantity"),
                Arguments.of("quantity missing", "{\"lines\":[{\"sku\":\"" + SKU + "\"}]}", "validation-failed", "lines[0].quantity"),
                Arguments.of("sku missing", "{\"lines\":[{\"quantity\":1}]}", "validation-failed", "lines[0].sku"),
                Arguments.of("sku number", "{\"lines\":[{\"sku\":12,\"quantity\":1}]}", "validation-failed", "lines[0].sku"),
                Arguments.of("sku bad characters", "{\"lines\":[{\"sku\":\"a b'; DROP TABLE stock_items;--\",\"quantity\":1}]}",
                        "validation-failed", "lines[0].sku"),
                Arguments.of("sku confusable unicode", "{\"lines\":[{\"sku\":\"\u0410-1\",\"quantity\":1}]}", "validation-failed",
                        "lines[0].sku"),
                Arguments.of("sku too long", "{\"lines\":[{\"sku\":\"" + "A".repeat(65) + "\",\"quantity\":1}]}", "validation-failed",
                        "lines[0].sku"),
                Arguments.of("duplicate skus", "{\"lines\":[" + line + "," + line + "]}", "validation-failed", "lines[1].sku"),
                Arguments.of("101 lines", "{\"lines\":[" + String.join(",", java.util.Collections.nCopies(101, line)) + "]}",
                        "validation-failed", "lines"),
                Arguments.of("ttl zero", "{\"lines\":[" + line + "],\"ttlSeconds\":0}", "validation-failed", "ttlSeconds"),
                Arguments.of("ttl too long", "{\"lines\":[" + line + "],\"ttlSeconds\":86401}", "validation-failed", "ttlSeconds"),
                Arguments.of("ttl string", "{\"lines\":[" + line + "],\"ttlSeconds\":\"60\"}", "validation-failed", "ttlSeconds"),
                Arguments.of("unknown field", "{\"lines\":[" + line + "],\"tenant_id\":\"other\"}", "validation-failed", "tenant_id"),
                Arguments.of("duplicate field", "{\"lines\":[" + line + "],\"lines\":[" + line + "]}", "malformed-request", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void shouldRefuseABadBodyAndStoreNothing(String name, String body, String slug, String field) {
        String key = Api.key();

        Response response = api.reserve(key, body);

        response.then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/" + slug))
                .body("title", not(equalTo(null)))
                .body("status", equalTo(400))
                .body("detail", not(containsString("Exception")))
                .body("detail", not(containsString("dev.stockhold")));
        if (field != null) {
            assertThat(response.jsonPath().getList("violations.field")).as(name).contains(field);
        }
        assertNothingStored(key);
    }

    static Stream<Arguments> badKeys() {
        return Stream.of(
                Arguments.of("missing", null, "idempotency-key-missing"),
                Arguments.of("too long", "k".repeat(256), "idempotency-key-invalid"),
                Arguments.of("inner tab", "key\tvalue", "idempotency-key-invalid"),
                Arguments.of("inner space", "two words", "idempotency-key-invalid"),
                Arguments.of("non-ASCII", "cl\u00e9", "idempotency-key-invalid"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badKeys")
    void shouldRefuseABadIdempotencyKeyAndStoreNothing(String name, String key, String slug) {
        var request = api.request().contentType("application/json").body("{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1}]}");
        if (key != null) {
            request.header("Idempotency-Key", key);
        }

        request.post("/v1/reservations").then().statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/" + slug));
        assertThat(db.idempotencyRecordsOfTenant(api.tenant())).isZero();
        assertThat(db.available(api.tenant(), SKU)).isEqualTo(10);
    }

    @Test
    void shouldAcceptTheLongestValidKey() {
        api.reserve("~".repeat(255), SKU, 1).then().statusCode(201);
    }

    @Test
    void shouldRefuseAnOversizeBodyWithAProblem() {
        String key = Api.key();
        String huge = "{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1}],\"pad\":\"" + "x".repeat(70_000) + "\"}";

        api.reserve(key, huge).then().statusCode(413)
                .contentType("application/problem+json")
                .body("type", equalTo("/problems/payload-too-large"));
        assertNothingStored(key);
    }

    @Test
    void shouldRefuseAnotherMediaTypeWithAProblem() {
        String key = Api.key();
        api.request().contentType("text/plain").header("Idempotency-Key", key)
                .body("{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1}]}").post("/v1/reservations")
                .then().statusCode(415)
                .contentType("application/problem+json")
                .body("type", endsWith("/unsupported-media-type"));
        assertNothingStored(key);
    }

    @Test
    void shouldAnswerUnknownRoutesAndMethodsWithProblems() {
        api.request().get("/v1/nothing-here").then().statusCode(404).contentType("application/problem+json")
                .body("type", endsWith("/not-found"));
        api.request().delete("/v1/items/{sku}", SKU).then().statusCode(405).contentType("application/problem+json")
                .body("type", endsWith("/method-not-allowed"));
        api.request().put("/v1/reservations").then().statusCode(405).contentType("application/problem+json");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = { "{\"available\":-1}", "{\"available\":1000000001}",
            "{\"available\":\"5\"}", "{\"available\":2.5}", "{}", "{\"available\":5,\"extra\":1}", "{oops" })
    void shouldRefuseABadStockBodyAndKeepTheStock(String body) {
        api.request().contentType("application/json").body(body).put("/v1/items/{sku}", SKU)
                .then().statusCode(400).contentType("application/problem+json");
        assertThat(db.available(api.tenant(), SKU)).isEqualTo(10);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = { "has space", "semi;colon", "\u0410-1",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" })
    void shouldRefuseABadSkuInThePath(String sku) {
        api.request().contentType("application/json").body("{\"available\":1}").put("/v1/items/{sku}", sku)
                .then().statusCode(400).body("type", endsWith("/validation-failed")).body("violations[0].field", equalTo("sku"));
        api.request().get("/v1/items/{sku}", sku).then().statusCode(400);
        assertThat(db.queryLong("SELECT count(*) FROM stock_records WHERE tenant_id = ?", api.tenant())).isEqualTo(1);
    }

    private void assertNothingStored(String key) {
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(db.outboxEventsOfTenant(api.tenant())).isZero();
        assertThat(db.available(api.tenant(), SKU)).isEqualTo(10);
    }
}
