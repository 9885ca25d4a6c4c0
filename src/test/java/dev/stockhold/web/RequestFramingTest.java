package dev.stockhold.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.RawHttp;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A request is framed in one way before any limit or route sees it (RequestFraming), sent byte for byte. The paths
 * that normalise to something else than they say are AdmissionTest's (judged with the reservation limit full).
 */
@QuarkusTest
class RequestFramingTest {

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    /** A body under an unknown coding is a second request smuggled in: refused, and the connection closed before it runs. */
    @Test
    void shouldCloseTheConnectionOnAnUnknownTransferCoding() throws Exception {
        Api attacker = Api.newTenant();
        Api victim = Api.newTenant();
        String settings = "{\"maxLineQuantity\":7,\"maxHeldPerReference\":3}";
        String smuggled = RawHttp.request("PUT", "/v1/settings", victim.tenant(), settings, Map.of());
        String request = "PUT /v1/settings HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Tokens.allRoles(attacker.tenant())
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n" + smuggled;

        String answer = RawHttp.exchange(port, request);

        assertThat(answer).startsWith("HTTP/1.1 400").contains("Transfer-Encoding").contains("/problems/validation-failed")
                .doesNotContain("HTTP/1.1 200");
        victim.request().get("/v1/settings").then().statusCode(200)
                .body("maxLineQuantity", org.hamcrest.Matchers.not(org.hamcrest.Matchers.equalTo(7)));
        for (String coding : new String[]{ "chunked, identity", "gzip", "chunked\u000b" }) {
            String other = "POST /v1/reservations HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: " + coding + "\r\n\r\n0\r\n\r\n";
            assertThat(RawHttp.exchange(port, other)).as(coding).startsWith("HTTP/1.1 400");
        }
    }
}
