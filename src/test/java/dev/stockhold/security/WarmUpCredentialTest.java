package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/**
 * The credential a start gives itself for its warm-up: its token is an identity of its own tenant with the reservations
 * role only while open, and a 401 like any unverifiable token once closed or past its lifetime; a token that differs
 * from it in one character is never it.
 */
@QuarkusTest
class WarmUpCredentialTest {

    private static final String AVAILABILITY = "{\"lines\":[{\"sku\":\"sku-1\",\"quantity\":1}]}";

    @Inject
    WarmUpCredential credential;

    @AfterEach
    void close() {
        credential.close();
    }

    @Test
    void shouldStandForItsTenantWithTheReservationsRoleOnlyWhileOpen() {
        String token = credential.open("warm-up.test" + Api.sku().replace("-", ""), Duration.ofMinutes(1));

        as(token).body(AVAILABILITY).post("/v1/availability").then().statusCode(200).body("reservable", equalTo(false));
        as(token).body("{\"available\":5}").put("/v1/items/sku-1").then().statusCode(403); // inventory-admin only
        String other = token.substring(0, token.length() - 1) + (token.endsWith("A") ? "B" : "A");
        as(other).body(AVAILABILITY).post("/v1/availability").then().statusCode(401);

        credential.close();
        as(token).body(AVAILABILITY).post("/v1/availability").then().statusCode(401).body("type", equalTo("/problems/unauthorized"));
    }

    @Test
    void shouldRefuseItsTokenPastItsLifetime() {
        String token = credential.open("warm-up.lifetime", Duration.ofMinutes(1));
        as(token).body(AVAILABILITY).post("/v1/availability").then().statusCode(200);
        MovableClock.advance(Duration.ofSeconds(61)); // the service's clock, not the test's wait
        as(token).body(AVAILABILITY).post("/v1/availability").then().statusCode(401);
    }

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON);
    }
}
