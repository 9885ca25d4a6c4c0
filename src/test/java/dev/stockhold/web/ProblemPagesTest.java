package dev.stockhold.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.net.URI;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import io.quarkus.test.junit.QuarkusTest;

/** Every problem type resolves to a page, without a token; the type of a live problem resolves against its request. */
@QuarkusTest
class ProblemPagesTest {

    @Test
    void shouldServeAPageForEverySlugWithoutAToken() {
        for (ProblemType type : ProblemType.values()) {
            String page = given().get("/problems/{slug}", type.slug()).then().statusCode(200)
                    .contentType(containsString("text/html")).extract().asString();
            assertThat(page).contains(type.slug()).contains("What to do").contains(String.valueOf(type.status()));
        }
        given().get("/problems/no-such-problem").then().statusCode(404).body("type", equalTo("/problems/not-found"));
    }

    @Test
    void shouldPointEveryProblemAtItsPage() {
        Api api = Api.newTenant();
        String type = api.request().get("/v1/reservations/{id}", "00000000-0000-0000-0000-000000000000")
                .then().statusCode(404).extract().path("type");
        assertThat(type).isEqualTo("/problems/reservation-not-found");

        // RFC 9457 3.1.1: a relative type is resolved against the request URI
        String resolved = URI.create("http://localhost:8081/v1/reservations/x").resolve(type).getPath();
        given().get(resolved).then().statusCode(200).body(containsString("Reservation not found"));
    }
}
