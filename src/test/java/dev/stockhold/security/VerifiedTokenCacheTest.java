package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;

import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.build.Jwt;

/** The bearer-token mechanism goes through the cache; a hit never outlives the token's exp. */
@QuarkusTest
class VerifiedTokenCacheTest {

    @Inject
    JWTParser parser;

    @Test
    void shouldServeTheSecondUseOfATokenFromTheCache() throws Exception {
        String token = Tokens.allRoles("cache-" + System.nanoTime());

        given().auth().oauth2(token).get("/v1/items/NONE").then().statusCode(404);
        JsonWebToken first = parser.parse(token);
        JsonWebToken second = parser.parse(token);

        assertThat(parser).isInstanceOf(VerifiedTokenCache.class);
        assertThat(second).isSameAs(first);
        assertThat(second.<String>getClaim("tenant_id")).startsWith("cache-");
    }

    @Test
    void shouldVerifyAgainOnceTheTokenHasExpired() throws Exception {
        String token = Jwt.issuer(Tokens.ISSUER).subject("short").claim("tenant_id", "cache-short")
                .groups(Set.of("reservations")).expiresIn(Duration.ofSeconds(2)).sign();
        JsonWebToken cached = parser.parse(token);
        assertThat(parser.parse(token)).isSameAs(cached);

        long waitMillis = cached.getExpirationTime() * 1000 - System.currentTimeMillis() + 100;
        Thread.sleep(Math.max(0, waitMillis));

        // past exp the cache no longer answers; the verifier decides again (it still allows its clock skew)
        assertThat(parser.parse(token)).isNotSameAs(cached);
    }
}
