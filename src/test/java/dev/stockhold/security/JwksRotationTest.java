package dev.stockhold.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Eventually;
import dev.stockhold.support.JwksServer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * Keys that rotate, as real identity providers rotate them: the service verifies tokens against a JWKS URL, takes a
 * newly published key without a restart, refuses a key the provider removed, and keeps serving tokens of keys it has
 * while the JWKS endpoint is unreachable (an unknown key is then a 401, never a 500).
 */
@QuarkusTest
@TestProfile(JwksProfile.class)
class JwksRotationTest {

    private final String tenant = "jwks-" + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void shouldFollowTheProvidersKeysWithoutARestartAndSurviveItsOutage() {
        JwksServer.publish("key-1");
        awaitAccepted("key-1", "the published key");

        // the provider adds a key and starts signing with it: the unknown kid makes the service fetch the set again
        JwksServer.publish("key-1", "key-2");
        awaitAccepted("key-2", "a key added without a restart");

        // the provider retires key-1 and adds key-3: once the service has fetched the new set, key-1 is refused
        JwksServer.publish("key-2", "key-3");
        awaitAccepted("key-3", "the next added key");
        assertThat(status("key-1")).as("a removed key").isEqualTo(401);

        // the endpoint goes away: keys already fetched keep working, an unknown one is refused, nothing answers 500
        int fetchesBefore = JwksServer.fetches();
        int droppedBefore = JwksServer.droppedFetches();
        JwksServer.offline();
        // an unknown kid makes the service try the endpoint again (once jose4j's refresh reprieve is over): every such
        // token is a 401 until that attempt has been made and lost its connection
        Eventually.await(Duration.ofSeconds(5), "a key-set fetch tried while the endpoint is down", () -> {
            assertThat(status("key-4")).as("an unknown key while the JWKS endpoint is down").isEqualTo(401);
            return JwksServer.droppedFetches() > droppedBefore;
        });
        assertThat(status("key-2")).as("a cached key while the JWKS endpoint is down").isEqualTo(200);
        assertThat(status("key-3")).isEqualTo(200);
        assertThat(status("key-4")).as("an unknown key after the failed fetch").isEqualTo(401);
        assertThat(status("key-2")).as("still served after the failed refresh").isEqualTo(200);
        assertThat(JwksServer.fetches()).isEqualTo(fetchesBefore);
    }

    /**
     * Real rotations are minutes apart; jose4j, under smallrye-jwt, does not fetch a key set again within 300 ms of the
     * last fetch (its refresh reprieve, on the system clock): a new key's first tokens may be refused until then.
     */
    private void awaitAccepted(String kid, String what) {
        Eventually.await(Duration.ofSeconds(5), what, () -> status(kid) == 200);
    }

    private int status(String kid) {
        return given().auth().oauth2(JwksServer.token(kid, tenant)).get("/v1/items").statusCode();
    }
}
