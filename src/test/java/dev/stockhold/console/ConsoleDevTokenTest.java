package dev.stockhold.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import dev.stockhold.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The console as dev mode serves it: {@code stockhold.console.dev-token-file} names a token (dev mode's is the one
 * DevTokenIssuer writes), and the pages use it without asking anyone to sign in.
 */
@QuarkusTest
@TestProfile(ConsoleDevTokenTest.DevTokenProfile.class)
class ConsoleDevTokenTest {

    static final String TENANT = "console-dev";

    /** The file the service reads on each request for config.json, written by the test (as dev mode writes its own). */
    static final Path TOKEN_FILE = Path.of("target", "console-dev-token");

    public static class DevTokenProfile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("stockhold.console.dev-token-file", TOKEN_FILE.toString());
        }
    }

    @TestHTTPResource("/console/")
    URL console;

    @Test
    void shouldSignInWithTheDevTokenWithoutAsking() throws Exception {
        Files.writeString(TOKEN_FILE, Tokens.allRoles(TENANT) + "\n");
        String token = given().get("/console/config.json").then().statusCode(200).header("Cache-Control", "no-store")
                .extract().path("devToken");
        assertThat(token).as("the file's token, without its line end").startsWith("ey").doesNotContain("\n");
        given().auth().oauth2(token).get("/v1/reservations").then().statusCode(200);

        try (Browser browser = Browser.open()) {
            browser.get(console.toString());
            browser.awaitText("[data-fact='tenant']", "Tenant " + TENANT);
            assertThat(browser.driver.findElement(By.cssSelector(".badge")).getText()).isEqualTo("dev token");
            browser.awaitText("main h1", "Stock");
            assertThat(browser.pageErrors()).isEmpty();
        }
    }
}
