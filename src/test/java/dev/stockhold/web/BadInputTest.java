package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Every malformed body, header or key: a 4xx problem naming what is wrong, and nothing stored. */
@QuarkusTest
class BadInputTest extends TenantFixture {

    static final String SKU = "BAD-INPUT-SKU";

    @BeforeEach
    void setUp() {
        api.setStock(SKU, 10);
    }

    static Stream<Arguments> badBodies() {
        String line = "{\"sku\":\"" + SKU + "\",\"quantity\":1}";
        return Stream.of(
                Arguments.of("not JSON", "lines: 1", "malformed-request", null),
                Arguments.of("truncated JSON", "{\"lines\":[" + line, "malformed-request", null),
                Arguments.of("trailing garbage", "{\"lines\":[" + line + "]} x", "malformed-request", null),
                // the binder stops at the first field; the document is broken further on, and that is what is reported
                Arguments.of("truncated after a field of the wrong type", "{\"ttlSeconds\":\"x\",\"lines\":[" + line, "malformed-request",
                        null),
                Arguments.of("trailing garbage after a field of the wrong type", "{\"ttlSeconds\":\"x\",\"lines\":[" + line + "]} x",
                        "malformed-request", null),
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
                Arguments.of("reference with NUL", "{\"lines\":[" + line + "],\"reference\":\"a\\u0000b\"}", "validation-failed",
                        "reference"),
                Arguments.of("reference with a lone surrogate", "{\"lines\":[" + line + "],\"reference\":\"\\ud800\"}",
                        "validation-failed", "reference"),
                Arguments.of("reference with a lone low surrogate", "{\"lines\":[" + line + "],\"reference\":\"x\\udc00\"}",
                        "validation-failed", "reference"),
                Arguments.of("metadata value with NUL", "{\"lines\":[" + line + "],\"metadata\":{\"channel\":\"w\\u0000\"}}",
                        "validation-failed", "metadata.channel"),
                // Jackson itself refuses a field name it cannot encode
                Arguments.of("metadata key with a lone surrogate", "{\"lines\":[" + line + "],\"metadata\":{\"\\ud800\":\"w\"}}",
                        "malformed-request", null),
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

    /**
     * A lone surrogate once became "?" in the fingerprint: "?" and then "\ud800" under one key was a replay (201) and the
     * answer claimed a reference the client never sent.
     */
    @Test
    void shouldNotTakeALoneSurrogateForTheQuestionMarkItWouldBecome() {
        String key = Api.key();
        String line = "{\"sku\":\"" + SKU + "\",\"quantity\":1}";
        api.reserve(key, "{\"lines\":[" + line + "],\"reference\":\"?\"}").then().statusCode(201);

        api.reserve(key, "{\"lines\":[" + line + "],\"reference\":\"\\ud800\"}").then().statusCode(400)
                .header("Idempotent-Replayed", equalTo(null))
                .body("type", equalTo("/problems/validation-failed")).body("violations[0].field", equalTo("reference"));
        // the pair with a valid look-alike is another request, not a replay
        api.reserve(key, "{\"lines\":[" + line + "],\"reference\":\"\\ufffd\"}").then().statusCode(422)
                .body("type", equalTo("/problems/idempotency-key-reused"));
        assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(1);
        assertThat(db.available(api.tenant(), SKU)).isEqualTo(9);
    }

    /** An unpaired surrogate sent as raw UTF-8-style bytes (0xED 0xA0 0x80), not as an escape: refused all the same. */
    @Test
    void shouldRefuseAnUnpairedSurrogateSentAsRawBytes() {
        String key = Api.key();
        byte[] start = ("{\"lines\":[{\"sku\":\"" + SKU + "\",\"quantity\":1}],\"reference\":\"a").getBytes(
                java.nio.charset.StandardCharsets.US_ASCII);
        byte[] body = java.util.Arrays.copyOf(start, start.length + 5);
        body[start.length] = (byte) 0xED;
        body[start.length + 1] = (byte) 0xA0;
        body[start.length + 2] = (byte) 0x80;
        body[start.length + 3] = '"';
        body[start.length + 4] = '}';

        Response response = api.request().contentType("application/json").header("Idempotency-Key", key).body(body)
                .post("/v1/reservations");

        response.then().statusCode(400).contentType("application/problem+json");
        assertNothingStored(key);
    }

    static Stream<Arguments> outOfRangeDates() {
        return Stream.of(Arguments.of("createdFrom", "-200000-01-01T00:00:00Z"), Arguments.of("createdTo", "+999999999-12-31T23:59:59Z"),
                Arguments.of("createdFrom", "0000-12-31T23:59:59Z"), Arguments.of("createdTo", "+10000-01-01T00:00:00Z"));
    }

    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("outOfRangeDates")
    void shouldRefuseADateOutOfRangeNamingIt(String field, String value) {
        api.request().queryParam(field, value).get("/v1/reservations").then().statusCode(400)
                .contentType("application/problem+json").body("type", equalTo("/problems/validation-failed"))
                .body("violations[0].field", equalTo(field));
        api.request().contentType("application/json").body("{\"since\":\"" + value + "\"}").post("/v1/admin/outbox/dead/requeue")
                .then().statusCode(400).body("type", equalTo("/problems/validation-failed"))
                .body("violations[0].field", equalTo("since"));
        api.request().queryParam(field, "9999-12-31T23:59:59Z").get("/v1/reservations").then().statusCode(200);
    }

    /** Even a cursor that carries a valid MAC (made here with the test profile's key) must hold a position in range. */
    @Test
    void shouldRefuseACursorWhosePositionIsOutOfRange() {
        Cursors cursors = new Cursors(dev.stockhold.security.ProdSecurityGuard.DEV_CURSOR_SECRET);
        java.util.List<String> binding = java.util.List.of("reservations", api.tenant(), "null", "null", "null", "null", "null");
        for (String micros : new String[]{ String.valueOf(Long.MIN_VALUE), String.valueOf(Long.MAX_VALUE), "-62135596800000001" }) {
            String forged = cursors.encode(binding, java.util.List.of(micros, java.util.UUID.randomUUID().toString()));
            api.request().queryParam("cursor", forged).get("/v1/reservations").then().statusCode(400)
                    .body("type", equalTo("/problems/validation-failed")).body("violations[0].field", equalTo("cursor"));
        }
        // a cursor signed with any other key is refused before its position is read
        String otherKey = new Cursors("another-key-another-key-another-key").encode(binding,
                java.util.List.of("0", java.util.UUID.randomUUID().toString()));
        api.request().queryParam("cursor", otherKey).get("/v1/reservations").then().statusCode(400)
                .body("violations[0].field", equalTo("cursor"));
        String ours = cursors.encode(binding, java.util.List.of("0", java.util.UUID.randomUUID().toString()));
        api.request().queryParam("cursor", ours).get("/v1/reservations").then().statusCode(200);
    }

    @Test
    void shouldRefuseAFilterWithNulOrInvalidUnicode() {
        api.request().queryParam("reference", "a\u0000b").get("/v1/reservations").then().statusCode(400)
                .body("type", equalTo("/problems/validation-failed")).body("violations[0].field", equalTo("reference"));
    }

    private void assertNothingStored(String key) {
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(db.outboxEventsOfTenant(api.tenant())).isZero();
        assertThat(db.available(api.tenant(), SKU)).isEqualTo(10);
    }
}
