package dev.stockhold.console;

import static io.restassured.RestAssured.given;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** {@code stockhold.console.enabled=false}: no page, no configuration document; the API serves as before. */
@QuarkusTest
@TestProfile(ConsoleTurnedOffTest.Off.class)
class ConsoleTurnedOffTest {

    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.console.enabled", "false");
        }
    }

    @Test
    void shouldServeNothingOfTheConsole() {
        for (String path : new String[]{ "/console", "/console/", "/console/app.js", "/console/config.json" }) {
            given().redirects().follow(false).get(path).then().statusCode(404);
        }
        given().get("/q/openapi").then().statusCode(200);
    }
}
