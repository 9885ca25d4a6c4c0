package dev.stockhold.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.Api;
import dev.stockhold.support.NpmTools;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * /q/openapi checked against live traffic by a third-party validator, not by reading it: Stoplight Prism runs as a
 * proxy in front of the service with the document the service serves, and reports, for every response, where it
 * differs from the document (header {@code sl-violations}). The traffic covers every operation with its success and
 * its errors. Prism comes from npm (installed into target/prism on first use); without npm the test is skipped.
 */
@QuarkusTest
class OpenApiLiveValidationTest {

    private static final String PRISM_VERSION = "5.16.0";
    private static final ObjectMapper JSON = new ObjectMapper();
    private Process prism;

    @jakarta.inject.Inject
    javax.sql.DataSource dataSource;

    @AfterEach
    void stopPrism() {
        if (prism != null) {
            prism.destroyForcibly();
        }
    }

    /**
     * Every error the document lists is a problem: OpenApiDefaults gives problem+json content to a declared response
     * whose description starts with a problem slug, so a description that forgets the slug would leave it without.
     */
    @Test
    void shouldDocumentEveryErrorResponseAsAProblem() throws Exception {
        JsonNode paths = JSON.readTree(given().accept("application/json").get("/q/openapi").asString()).path("paths");
        List<String> bare = new ArrayList<>();
        paths.fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> operation.getValue()
                .path("responses").fields().forEachRemaining(response -> {
                    String status = response.getKey();
                    if ((status.startsWith("4") || status.startsWith("5") || status.equals("default"))
                            && response.getValue().path("content").path(ProblemType.MEDIA_TYPE).isMissingNode()) {
                        bare.add(operation.getKey() + " " + path.getKey() + " " + status);
                    }
                })));
        assertThat(paths.size()).as("paths in /q/openapi").isPositive();
        assertThat(bare).as("error responses without application/problem+json content").isEmpty();
    }

    @Test
    void shouldAnswerEveryOperationAsTheDocumentSays() throws Exception {
        int port = startPrism();
        Api api = Api.newTenant();
        Function<RequestSpecification, RequestSpecification> via = spec -> spec.baseUri("http://127.0.0.1").port(port);
        List<String> violations = new ArrayList<>();
        String sku = "SKU-" + api.tenant();

        check(violations, "set stock",
                via.apply(api.request()).contentType(ContentType.JSON).body("{\"available\":5}").put("/v1/items/{sku}", sku));
        check(violations, "read stock", via.apply(api.request()).get("/v1/items/{sku}", sku));
        check(violations, "unknown item", via.apply(api.request()).get("/v1/items/{sku}", "nope"));
        check(violations, "bad stock body",
                via.apply(api.request()).contentType(ContentType.JSON).body("{\"available\":-1}").put("/v1/items/{sku}", sku));
        Response created = via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-1")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"reference\":\"o-1\",\"metadata\":{\"c\":\"web\"}}")
                .post("/v1/reservations");
        check(violations, "reserve", created);
        String id = created.path("id");
        check(violations, "replay", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "\"live-1\"")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"reference\":\"o-1\",\"metadata\":{\"c\":\"web\"}}")
                .post("/v1/reservations"));
        check(violations, "insufficient", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-2")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":99}]}").post("/v1/reservations"));
        check(violations, "unknown sku", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-3")
                .body("{\"lines\":[{\"sku\":\"nope\",\"quantity\":1}]}").post("/v1/reservations"));
        check(violations, "key reused", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-1")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":2}]}").post("/v1/reservations"));
        check(violations, "list", via.apply(api.request()).queryParam("limit", 1).get("/v1/reservations"));
        check(violations, "bad list", via.apply(api.request()).queryParam("limit", "abc").get("/v1/reservations"));
        check(violations, "read", via.apply(api.request()).get("/v1/reservations/{id}", id));
        check(violations, "not found", via.apply(api.request()).get("/v1/reservations/{id}", "00000000-0000-0000-0000-000000000000"));
        check(violations, "extend", via.apply(api.request()).contentType(ContentType.JSON).body("{\"ttlSeconds\":600}")
                .post("/v1/reservations/{id}/extend", id));
        check(violations, "hold limit", via.apply(api.request()).contentType(ContentType.JSON).body("{\"ttlSeconds\":86400}")
                .post("/v1/reservations/{id}/extend", id));
        check(violations, "confirm", via.apply(api.request()).post("/v1/reservations/{id}/confirm", id));
        check(violations, "cancel refused", via.apply(api.request()).post("/v1/reservations/{id}/cancel", id));
        new dev.stockhold.support.Db(dataSource).execute("""
                INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, status, attempts, last_error)
                VALUES (gen_random_uuid(), ?, gen_random_uuid(), 'dev.stockhold.reservation.created.v1', '{}', 'DEAD', 10, 'nack: test')
                """, api.tenant());
        check(violations, "set location", via.apply(api.request()).contentType(ContentType.JSON).body("{\"priority\":5}")
                .put("/v1/locations/{location}", "WH-2"));
        check(violations, "locations", via.apply(api.request()).get("/v1/locations"));
        check(violations, "set on hand", via.apply(api.request()).contentType(ContentType.JSON).body("{\"onHand\":9}")
                .put("/v1/items/{sku}/stock/{location}", sku, "WH-2"));
        check(violations, "reserve at a location",
                via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-5")
                        .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1,\"location\":\"WH-2\"}]}").post("/v1/reservations"));
        check(violations, "reserve split",
                via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-6")
                        .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":4}],\"allocation\":\"split\"}").post("/v1/reservations"));
        check(violations, "reserve partial",
                via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-7")
                        .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":50}],\"allocation\":\"partial\"}")
                        .post("/v1/reservations"));
        check(violations, "availability", via.apply(api.request()).contentType(ContentType.JSON)
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":2},{\"sku\":\"nope\",\"quantity\":1}],\"allocation\":\"partial\"}")
                .post("/v1/availability"));
        check(violations, "stale if-match", via.apply(api.request()).contentType(ContentType.JSON).header("If-Match", "\"99\"")
                .body("{\"onHand\":9}").put("/v1/items/{sku}/stock/{location}", sku, "WH-2"));
        check(violations, "below held", via.apply(api.request()).contentType(ContentType.JSON).body("{\"onHand\":0}")
                .put("/v1/items/{sku}/stock/{location}", sku, "WH-2"));
        check(violations, "stock record", via.apply(api.request()).get("/v1/items/{sku}/stock/{location}", sku, "WH-2"));
        check(violations, "no stock record", via.apply(api.request()).get("/v1/items/{sku}/stock/{location}", sku, "WH-9"));
        check(violations, "adjust", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-adj-1")
                .body("{\"delta\":-2,\"reason\":\"damaged\"}").post("/v1/items/{sku}/stock/{location}/adjustments", sku, "WH-2"));
        check(violations, "adjust replay", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-adj-1")
                .body("{\"delta\":-2,\"reason\":\"damaged\"}").post("/v1/items/{sku}/stock/{location}/adjustments", sku, "WH-2"));
        check(violations, "adjust below held",
                via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-adj-2")
                        .body("{\"delta\":-100}").post("/v1/items/{sku}/stock/{location}/adjustments", sku, "WH-2"));
        check(violations, "batch adjust", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-adj-3")
                .body("{\"adjustments\":[{\"sku\":\"" + sku + "\",\"location\":\"WH-2\",\"delta\":3}]}").post("/v1/stock/adjustments"));
        check(violations, "batch below held",
                via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-adj-4")
                        .body("{\"adjustments\":[{\"sku\":\"" + sku + "\",\"location\":\"WH-2\",\"delta\":-1000}]}")
                        .post("/v1/stock/adjustments"));
        check(violations, "location defaults", via.apply(api.request()).contentType(ContentType.JSON)
                .body("{\"priority\":5,\"safetyStock\":1,\"lowStockThreshold\":3}").put("/v1/locations/{location}", "WH-2"));
        check(violations, "set safety stock", via.apply(api.request()).contentType(ContentType.JSON)
                .body("{\"onHand\":20,\"safetyStock\":2,\"lowStockThreshold\":4}").put("/v1/items/{sku}/stock/{location}", sku, "WH-2"));
        check(violations, "movements", via.apply(api.request()).get("/v1/items/{sku}/stock/{location}/movements", sku, "WH-2"));
        check(violations, "snapshot", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-snap-1")
                .body("{\"asOf\":\"2026-01-01T00:00:00Z\",\"records\":[{\"sku\":\"" + sku + "\",\"onHand\":30}]}")
                .post("/v1/locations/{location}/snapshots", "WH-2"));
        check(violations, "settings none", via.apply(api.request()).get("/v1/settings"));
        check(violations, "put settings", via.apply(api.request()).contentType(ContentType.JSON)
                .body("{\"maxLineQuantity\":40,\"maxHeldPerReference\":5}").put("/v1/settings"));
        check(violations, "settings", via.apply(api.request()).get("/v1/settings"));
        check(violations, "bad settings", via.apply(api.request()).contentType(ContentType.JSON).body("{\"maxLineQuantity\":0}")
                .put("/v1/settings"));
        check(violations, "over the line cap", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-8")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":41}]}").post("/v1/reservations"));
        check(violations, "capped reference", via.apply(api.request()).contentType(ContentType.JSON).header("Idempotency-Key", "live-9")
                .body("{\"reference\":\"o-1\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}").post("/v1/reservations"));
        check(violations, "stock of skus", via.apply(api.request()).queryParam("sku", sku, "nope").get("/v1/items"));
        check(violations, "stock list", via.apply(api.request()).queryParam("limit", 1).get("/v1/items"));
        check(violations, "stock list bad", via.apply(api.request()).queryParam("availableBelow", "x").get("/v1/items"));
        check(violations, "outbox", via.apply(api.request()).get("/v1/admin/outbox"));
        check(violations, "dead", via.apply(api.request()).get("/v1/admin/outbox/dead"));
        check(violations, "dead bad limit", via.apply(api.request()).queryParam("limit", "abc").get("/v1/admin/outbox/dead"));
        check(violations, "requeue all", via.apply(api.request()).post("/v1/admin/outbox/dead/requeue"));
        check(violations, "requeue one",
                via.apply(api.request()).post("/v1/admin/outbox/dead/{id}/requeue", "00000000-0000-0000-0000-000000000000"));
        check(violations, "no token", via.apply(given()).get("/v1/reservations/{id}", id));
        check(violations, "wrong role",
                via.apply(given().auth().oauth2(Tokens.forTenant(api.tenant(), "reservations"))).get("/v1/admin/outbox"));
        check(violations, "text body", via.apply(api.request()).contentType(ContentType.TEXT).header("Idempotency-Key", "live-4")
                .body("x").post("/v1/reservations"));
        check(violations, "problem page", via.apply(given()).get("/problems/{slug}", "insufficient-stock"));

        assertThat(violations).as("responses that differ from /q/openapi").isEmpty();

        // the control: the same check against a document that demands a field the service never sends must fail
        prism.destroyForcibly();
        prism.waitFor();
        int mutated = startPrism(doc -> {
            ((com.fasterxml.jackson.databind.node.ArrayNode) doc.path("components").path("schemas").path("Reservation")
                    .withArray("required")).add("neverThere");
            return doc;
        });
        List<String> control = new ArrayList<>();
        check(control, "read", api.request().baseUri("http://127.0.0.1").port(mutated).get("/v1/reservations/{id}", id));
        assertThat(control).as("Prism reports a response that breaks the document").isNotEmpty();
    }

    private static void check(List<String> violations, String what, Response response) throws IOException {
        String header = response.getHeader("sl-violations");
        if (header == null) {
            return;
        }
        for (JsonNode violation : JSON.readTree(header)) {
            if ("response".equals(violation.path("location").path(0).asText())) {
                violations.add(what + " (" + response.statusCode() + "): " + violation);
            }
        }
    }

    /** Prism as a proxy in front of the test instance, with the document that instance serves. */
    private int startPrism() throws Exception {
        return startPrism(doc -> doc);
    }

    private int startPrism(java.util.function.UnaryOperator<JsonNode> edit) throws Exception {
        Path bin = Path.of("target", "prism", "node_modules", ".bin", "prism");
        NpmTools.install("prism", "@stoplight/prism-cli@" + PRISM_VERSION, bin);
        String service = "http://127.0.0.1:" + RestAssured.port;
        Path spec = Path.of("target", "openapi-live.json");
        JsonNode document = edit.apply(JSON.readTree(given().accept("application/json").get(service + "/q/openapi").asString()));
        Files.writeString(spec, JSON.writeValueAsString(document));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        prism = new ProcessBuilder(bin.toString(), "proxy", spec.toString(), service, "--port", String.valueOf(port), "--host", "127.0.0.1")
                .redirectErrorStream(true).redirectOutput(new File("target/prism.log")).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return port;
            } catch (IOException notYet) {
                assertThat(prism.isAlive()).as("prism running (see target/prism.log)").isTrue();
                Thread.sleep(200);
            }
        }
        throw new IllegalStateException("prism did not listen within 60 s: see target/prism.log");
    }
}
