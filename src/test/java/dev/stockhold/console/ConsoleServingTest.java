package dev.stockhold.console;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.stockhold.ConsoleConfig;
import dev.stockhold.support.Api;
import dev.stockhold.support.Repository;
import dev.stockhold.web.ConsoleRoutes;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * How the service serves the console: static pages under a strict Content-Security-Policy (which only holds if the pages
 * carry no inline script, style or handler: checked in their sources), revalidated before use, with a configuration
 * document that names no secret; and nothing of it on the API's own answers.
 */
@QuarkusTest
class ConsoleServingTest {

    static final Path ASSETS = Repository.path("src/main/resources/META-INF/resources/console");
    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    @Test
    void shouldServeThePagesWithTheirSecurityAndCacheHeaders() {
        given().redirects().follow(false).get("/console").then().statusCode(301).header("Location", "/console/");
        for (String page : List.of("/console/", "/console/app.js", "/console/console.css", "/console/favicon.svg")) {
            Response answer = given().get(page);
            answer.then().statusCode(200).header("Content-Security-Policy", POLICY).header("Cache-Control", "no-cache")
                    .header("X-Content-Type-Options", "nosniff").header("X-Frame-Options", "DENY")
                    .header("Referrer-Policy", "no-referrer");
            String lastModified = answer.header("Last-Modified");
            assertThat(lastModified).as("%s can be revalidated", page).isNotBlank();
            given().header("If-Modified-Since", lastModified).get(page).then().statusCode(304);
        }
        given().get("/console/").then().contentType(containsString("text/html"))
                .body(containsString("<script type=\"module\" src=\"app.js\">"));
        given().get("/console/app.js").then().contentType(containsString("javascript"));
        given().get("/console/no-such-page.js").then().statusCode(404);
    }

    @Test
    void shouldTellThePagesWhereToSignInAndNothingSecret() {
        given().get("/console/config.json").then().statusCode(200).header("Cache-Control", "no-store")
                .body("clientId", equalTo("stockhold-console")).body("scope", equalTo("openid"))
                .body("issuer", nullValue()).body("devToken", nullValue());
    }

    @Test
    void shouldLeaveTheApiAnswersAsTheyWere() {
        Api api = Api.newTenant();
        Response answer = api.request().get("/v1/reservations");
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().hasHeaderWithName("Content-Security-Policy")).isFalse();
        assertThat(answer.headers().hasHeaderWithName("X-Frame-Options")).isFalse();
    }

    @Test
    void shouldLetThePagesFetchFromTheIssuerAndTheConfiguredOriginsOnly() {
        assertThat(ConsoleRoutes.contentSecurityPolicy(config("https://idp.example:8443/realms/shop", List.of("https://login.example"))))
                .contains("; connect-src 'self' https://idp.example:8443 https://login.example; ");
        for (String issuer : List.of("idp.example", "ftp://idp.example", "https://idp.example; script-src *", "https://")) {
            assertThatThrownBy(() -> ConsoleRoutes.contentSecurityPolicy(config(issuer, List.of()))).as(issuer)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("STOCKHOLD_CONSOLE_ISSUER");
        }
        for (String origin : List.of("https://login.example; script-src *", "https://login.example/token", "*", "'unsafe-inline'")) {
            assertThatThrownBy(() -> ConsoleRoutes.contentSecurityPolicy(config("https://idp.example", List.of(origin)))).as(origin)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("STOCKHOLD_CONSOLE_CONNECT_SRC");
        }
    }

    private static ConsoleConfig config(String issuer, List<String> connectSrc) {
        return new ConsoleConfig() {
            public boolean enabled() {
                return true;
            }

            public Optional<String> issuer() {
                return Optional.of(issuer);
            }

            public String clientId() {
                return "console";
            }

            public String scope() {
                return "openid";
            }

            public Optional<List<String>> connectSrc() {
                return Optional.of(connectSrc);
            }

            public Optional<String> devTokenFile() {
                return Optional.empty();
            }
        };
    }

    /** The policy holds only if the pages need nothing it forbids: no inline script, handler or style, no eval. */
    @Test
    void shouldCarryNoInlineScriptStyleOrEval() throws IOException {
        for (Path file : assets()) {
            String text = Files.readString(file);
            String name = file.getFileName().toString();
            if (name.endsWith(".html")) {
                assertThat(text).as(name).doesNotContainPattern("<script(?![^>]*\\ssrc=)[^>]*>")
                        .doesNotContainPattern("\\son[a-z]+\\s*=").doesNotContainPattern("\\sstyle\\s*=").doesNotContain("javascript:");
            }
            if (name.endsWith(".js")) {
                assertThat(text).as(name).doesNotContain("innerHTML").doesNotContain("outerHTML").doesNotContain("eval(")
                        .doesNotContain("new Function").doesNotContain("document.write").doesNotContain("setAttribute('style'");
            }
        }
    }

    /** What the console adds to the image: its files as they are packaged (uncompressed), well under 300 KB. */
    @Test
    void shouldAddUnder300KilobytesToTheImage() throws IOException {
        long bytes = 0;
        for (Path file : assets()) {
            bytes += Files.size(file);
        }
        System.out.printf("console assets: %d files, %,d bytes%n", assets().size(), bytes);
        assertThat(bytes).isLessThan(300 * 1024);
    }

    static List<Path> assets() throws IOException {
        try (Stream<Path> files = Files.walk(ASSETS)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
