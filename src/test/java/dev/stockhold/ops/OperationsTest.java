package dev.stockhold.ops;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Management;
import dev.stockhold.web.ProblemType;
import io.quarkus.test.junit.QuarkusTest;

/** Health probes, metrics and OpenAPI as operators and generated clients see them. */
@QuarkusTest
class OperationsTest {

    @Test
    void shouldReportLiveReadyAndStarted() {
        Management.given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        Management.given().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        Management.given().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("database-migrations"))
                .body("checks.find { it.name == 'database-migrations' }.data.pending", equalTo(0))
                .body("checks.find { it.name == 'outbox-relay' }.data.target", equalTo("rabbitmq"));
    }

    /** Health details and every tenant's counters are for operators: the API port does not serve them. */
    @Test
    void shouldServeHealthAndMetricsOnTheManagementPortOnly() {
        assertThat(Management.port()).isNotEqualTo(io.restassured.RestAssured.port);
        for (String path : new String[]{ "/q/metrics", "/q/health", "/q/health/ready", "/q/health/live", "/q/health/started" }) {
            io.restassured.RestAssured.given().get(path).then().statusCode(404);
            Management.given().get(path).then().statusCode(200);
        }
        // the API's own description stays with the API
        io.restassured.RestAssured.given().get("/q/openapi").then().statusCode(200);
    }

    @Test
    void shouldCountReservationOutcomesAndTransitions() {
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 1);
        String id = api.reserve(Api.key(), sku, 1).path("id");
        api.reserve(Api.key(), sku, 1).then().statusCode(409);
        api.confirm(id).then().statusCode(200);
        api.adjust(Api.key(), sku, "default", 2).then().statusCode(200);
        api.adjust(Api.key(), sku, "default", -5).then().statusCode(409);

        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(metrics)
                .containsPattern("stockhold_reservations_total\\{.*outcome=\"created\".*\\} [1-9]")
                .containsPattern("stockhold_reservations_total\\{.*outcome=\"insufficient_stock\".*\\} [1-9]")
                .contains("stockhold_reservations_total{outcome=\"replayed\"")
                .containsPattern("stockhold_reservation_transitions_total\\{.*to=\"confirmed\".*\\} [1-9]")
                .contains("stockhold_reservation_transitions_total{to=\"expired\"")
                .contains("stockhold_reservation_transitions_total{to=\"cancelled\"")
                .contains("stockhold_outbox_pending{", "stockhold_outbox_dead{", "stockhold_outbox_oldest_pending_age_seconds{",
                        "stockhold_outbox_published_total{", "stockhold_outbox_publish_failures_total{reason=\"nack\"",
                        "stockhold_outbox_publish_lag_seconds_bucket", "stockhold_outbox_publish_lag_seconds_count",
                        "stockhold_invariant_violations{", "stockhold_events_published_total{type=\"stock.depleted\"")
                .containsPattern("stockhold_stock_adjustments_total\\{.*outcome=\"applied\".*\\} [1-9]")
                .containsPattern("stockhold_stock_adjustments_total\\{.*outcome=\"stock_below_held\".*\\} [1-9]")
                .containsPattern("stockhold_reservations_total\\{outcome=\"created\",version=\"[^\"]+\"\\}");
        // confirmed events are counted by kind once the relay has published them
        Eventually.await(Duration.ofSeconds(15), "a published reservation.confirmed event counted",
                () -> Management.given().get("/q/metrics").asString()
                        .matches("(?s).*stockhold_events_published_total\\{type=\"reservation\\.confirmed\"[^}]*} [1-9].*"));
    }

    @Test
    void shouldCountEveryProblemBySlugFreshOrReplayedAndTheBodyLimitToo() {
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 1);
        double insufficient = problems("insufficient-stock");
        double notFound = problems("reservation-not-found");
        double unauthorized = problems("unauthorized");
        double tooLarge = problems("payload-too-large");

        String key = Api.key();
        api.reserve(key, sku, 5).then().statusCode(409);
        api.reserve(key, sku, 5).then().statusCode(409).header("Idempotent-Replayed", "true");
        api.get(java.util.UUID.randomUUID().toString()).then().statusCode(404);
        given().get("/v1/reservations/" + java.util.UUID.randomUUID()).then().statusCode(401);
        api.request().contentType("application/json").header("Idempotency-Key", Api.key())
                .body("{\"lines\":[{\"sku\":\"" + "x".repeat(100_000) + "\",\"quantity\":1}]}")
                .post("/v1/reservations").then().statusCode(413);

        assertThat(problems("insufficient-stock") - insufficient).isEqualTo(2);
        assertThat(problems("reservation-not-found") - notFound).isEqualTo(1);
        assertThat(problems("unauthorized") - unauthorized).isEqualTo(1);
        assertThat(problems("payload-too-large") - tooLarge).isEqualTo(1);
        // every slug has its series from the start, with the slug's status
        String metrics = Management.given().get("/q/metrics").asString();
        for (ProblemType type : ProblemType.values()) {
            assertThat(metrics).contains("stockhold_problems_total{slug=\"" + type.slug() + "\",status=\"" + type.status() + "\"");
        }
    }

    private static double problems(String slug) {
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("stockhold_problems_total\\{slug=\"" + slug + "\",[^}]*} (\\S+)")
                .matcher(Management.given().get("/q/metrics").asString());
        assertThat(m.find()).as("series of %s", slug).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void shouldDescribeEveryEndpointHeaderAndProblemInOpenApi() {
        String spec = given().accept("application/json").get("/q/openapi").then().statusCode(200).extract().asString();

        assertThat(spec)
                .contains("/v1/items/{sku}", "/v1/reservations", "/v1/reservations/{id}",
                        "/v1/reservations/{id}/confirm", "/v1/reservations/{id}/cancel")
                .contains("Idempotency-Key", "Idempotent-Replayed", "Location", "Retry-After")
                .contains("application/problem+json", "\"Problem\"", "\"ReservationRequest\"", "\"Reservation\"")
                .contains("insufficient-stock", "unknown-sku", "idempotency-key-reused", "idempotency-request-in-progress",
                        "validation-failed", "malformed-request", "invalid-reservation-state", "reservation-not-found",
                        "item-not-found", "idempotency-key-missing", "idempotency-key-invalid", "payload-too-large")
                .contains("bearer");
        // the Problem schema names every slug the service answers, each once
        String slugs = given().accept("application/json").get("/q/openapi").then().extract().jsonPath()
                .getString("components.schemas.Problem.description");
        assertThat(slugs.substring(slugs.indexOf(':') + 1).replace(".", "").split(","))
                .extracting(String::trim)
                .containsExactlyInAnyOrder(java.util.Arrays.stream(dev.stockhold.web.ProblemType.values())
                        .map(dev.stockhold.web.ProblemType::slug).toArray(String[]::new));
    }

    /** What a client generated from the document relies on: a response for every status, anchored patterns. */
    @Test
    void shouldDeclareADefaultProblemForEveryOperationAndAnchorEveryPattern() {
        io.restassured.path.json.JsonPath spec = given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .extract().jsonPath();
        java.util.Map<String, java.util.Map<String, java.util.Map<String, Object>>> paths = spec.getMap("paths");
        int operations = 0;
        int bodied = 0;
        int keyed = 0;
        for (var path : paths.entrySet()) {
            for (var operation : path.getValue().entrySet()) {
                if (operation.getKey().equals("parameters")) {
                    continue;
                }
                operations++;
                java.util.Map<?, ?> responses = (java.util.Map<?, ?>) operation.getValue().get("responses");
                String name = operation.getKey() + " " + path.getKey();
                assertThat(responses.containsKey("default")).as(name + " has a default response").isTrue();
                if (operation.getValue().containsKey("requestBody")) {
                    bodied++;
                    assertThat(responses.containsKey("415")).as(name + " takes a body: it declares 415").isTrue();
                }
                java.util.List<?> parameters = (java.util.List<?>) operation.getValue().getOrDefault("parameters", java.util.List.of());
                if (parameters.stream().anyMatch(p -> "Idempotency-Key".equals(((java.util.Map<?, ?>) p).get("name")))) {
                    keyed++;
                    assertThat(String.valueOf(((java.util.Map<?, ?>) responses.get("400")).get("description")))
                            .as(name + " takes an Idempotency-Key: its 400 names the key's problems")
                            .contains("idempotency-key-missing", "idempotency-key-invalid");
                }
            }
        }
        assertThat(operations).isGreaterThan(10);
        assertThat(bodied).as("operations with a body").isGreaterThan(8);
        assertThat(keyed).as("operations with an Idempotency-Key").isGreaterThan(5);
        java.util.regex.Matcher patterns = java.util.regex.Pattern.compile("\"pattern\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"")
                .matcher(given().accept("application/json").get("/q/openapi").asString());
        int found = 0;
        while (patterns.find()) {
            found++;
            assertThat(patterns.group(1)).startsWith("^").endsWith("$");
        }
        assertThat(found).isGreaterThan(3);
    }

    /**
     * Swagger UI's Authorize dialog offers every scheme of the document: one bearer scheme, and every operation that needs
     * a token names it (a second scheme no operation names would send no header).
     */
    @Test
    void shouldOfferOneBearerSchemeThatEverySecuredOperationNames() {
        io.restassured.path.json.JsonPath spec = given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .extract().jsonPath();
        assertThat(spec.getMap("components.securitySchemes").keySet()).containsExactly("jwt");
        java.util.Map<String, java.util.Map<String, java.util.Map<String, Object>>> paths = spec.getMap("paths");
        int secured = 0;
        for (var path : paths.entrySet()) {
            for (var operation : path.getValue().entrySet()) {
                Object security = operation.getValue().get("security");
                if (security != null) {
                    secured++;
                    assertThat(security.toString()).as(operation.getKey() + " " + path.getKey()).isEqualTo("[{jwt=[]}]");
                }
            }
        }
        assertThat(secured).isGreaterThan(20);
    }
}
