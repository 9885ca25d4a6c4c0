package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.JwksServer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * The verified-token cache ({@link VerifiedTokens}) trusts a token it has verified no longer than its {@code exp} and
 * {@code stockhold.security.verified-token-ttl}: a token whose key the provider removed is refused once that time has
 * passed, and an expired token is refused although it is cached. Without those bounds, both last assertions fail.
 */
@QuarkusTest
@TestProfile(VerifiedTokensTest.ShortTrust.class)
class VerifiedTokensTest {

    public static class ShortTrust implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(JwksServer.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            // a clock skew of 1 s (0 means the default, 60 s): the parser refuses a token a second after its exp, well
            // before the cache's ttl would let it go
            return Map.of("stockhold.security.verified-token-ttl", "6s", "mp.jwt.verify.clock.skew", "1");
        }
    }

    private final String tenant = "tokens-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void shouldStopTrustingAVerifiedTokenWithinTheTtlOnceItsKeyIsRemoved() throws InterruptedException {
        JwksServer.publish("old-key");
        String verified = JwksServer.token("old-key", tenant);
        assertThat(status(verified)).isEqualTo(200);

        // the provider replaces the key; a token of the new key makes the service fetch the set again
        JwksServer.publish("new-key");
        Thread.sleep(500);
        assertThat(status(JwksServer.token("new-key", tenant))).isEqualTo(200);
        assertThat(status(JwksServer.token("old-key", tenant))).as("a token of the removed key, never seen").isEqualTo(401);
        assertThat(status(verified)).as("the token verified before the removal, within the ttl").isEqualTo(200);

        Thread.sleep(6_500);
        assertThat(status(verified)).as("the same token once the ttl has passed").isEqualTo(401);
    }

    @Test
    void shouldRefuseACachedTokenOnceItHasExpired() throws InterruptedException {
        JwksServer.publish("short-key");
        // the key set is fetched before the short-lived token is made, so its few seconds are not spent on that fetch
        assertThat(status(JwksServer.token("short-key", tenant))).isEqualTo(200);
        String shortLived = JwksServer.token("short-key", tenant, Duration.ofSeconds(3));
        assertThat(status(shortLived)).isEqualTo(200);
        assertThat(status(shortLived)).as("served again, from the cache").isEqualTo(200);

        // past exp (whole seconds) and the skew of 1 s, with a margin; the cache's ttl of 6 s has not passed
        Thread.sleep(4_500);
        assertThat(status(shortLived)).as("past its exp and the skew, within the ttl of its first verification").isEqualTo(401);
    }

    private int status(String token) {
        return given().auth().oauth2(token).get("/v1/items").statusCode();
    }
}
