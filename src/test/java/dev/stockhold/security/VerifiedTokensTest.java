package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Eventually;
import dev.stockhold.support.JwksServer;
import dev.stockhold.support.MovableClock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The verified-token cache ({@link VerifiedTokens}) trusts a token it has verified no longer than its {@code exp} and
 * {@code stockhold.security.verified-token-ttl}: a token whose key the provider removed is refused once that time has
 * passed, and an expired token is refused although it is cached. Without those bounds, both last assertions fail.
 */
@QuarkusTest
@TestProfile(JwksProfile.class)
class VerifiedTokensTest {

    private final String tenant = "tokens-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void shouldStopTrustingAVerifiedTokenWithinTheTtlOnceItsKeyIsRemoved() {
        JwksServer.publish("old-key");
        String verified = JwksServer.token("old-key", tenant);
        awaitAccepted(verified);

        // the provider replaces the key; a token of the new key makes the service fetch the set again
        JwksServer.publish("new-key");
        awaitAccepted(JwksServer.token("new-key", tenant));
        assertThat(status(JwksServer.token("old-key", tenant))).as("a token of the removed key, never seen").isEqualTo(401);
        assertThat(status(verified)).as("the token verified before the removal, within the ttl").isEqualTo(200);

        MovableClock.advance(Duration.ofMillis(6_500));
        assertThat(status(verified)).as("the same token once the ttl has passed").isEqualTo(401);
    }

    @Test
    void shouldRefuseACachedTokenOnceItHasExpired() {
        JwksServer.publish("short-key");
        // the key set is fetched before the short-lived token is made, so its few seconds are not spent on that fetch
        awaitAccepted(JwksServer.token("short-key", tenant));
        String shortLived = JwksServer.token("short-key", tenant, Duration.ofSeconds(3));
        assertThat(status(shortLived)).isEqualTo(200);
        assertThat(status(shortLived)).as("served again, from the cache").isEqualTo(200);

        // past exp (whole seconds) and the skew of 1 s, with a margin; the cache's ttl of 6 s has not passed
        MovableClock.advance(Duration.ofMillis(4_500));
        assertThat(status(shortLived)).as("past its exp and the skew, within the ttl of its first verification").isEqualTo(401);
    }

    /**
     * A token of a key the service has not fetched yet is accepted once it fetches the set again; jose4j, under
     * smallrye-jwt, refetches at most every 300 ms on the system clock, so the first tries may be refused.
     */
    private void awaitAccepted(String token) {
        Eventually.await(Duration.ofSeconds(5), "the service accepting a token of a newly published key", () -> status(token) == 200);
    }

    private int status(String token) {
        return given().auth().oauth2(token).get("/v1/items").statusCode();
    }
}
