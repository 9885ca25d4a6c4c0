package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.build.Jwt;

/**
 * One tenant minting fresh tokens by the hundred evicts its own verified tokens only: another tenant's token stays
 * cached (the very object handed out before comes back), where one shared bounded cache would have let it go.
 */
@QuarkusTest
@TestProfile(VerifiedTokensCacheTest.SmallCache.class)
class VerifiedTokensCacheTest {

    public static class SmallCache implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>();
            config.put("stockhold.security.verified-tokens", "1000");
            config.put("stockhold.security.verified-tokens-per-tenant", "16");
            return config;
        }
    }

    @Inject
    JWTParser parser;

    @Test
    void shouldNotLetOneTenantFlushAnothersVerifiedTokens() throws Exception {
        String victim = Tokens.allRoles("victim-" + System.nanoTime());
        Object cached = parser.parse(victim);
        assertThat(parser.parse(victim)).as("served from the cache").isSameAs(cached);

        String flooder = "flooder-" + System.nanoTime();
        for (int i = 0; i < 300; i++) {
            String token = Jwt.issuer(Tokens.ISSUER).audience(Tokens.AUDIENCE).subject("s" + i).claim("tenant_id", flooder)
                    .groups(Set.of("reservations")).expiresIn(Duration.ofMinutes(5)).sign();
            parser.parse(token);
        }

        assertThat(parser.parse(victim)).as("still cached after another tenant's 300 tokens").isSameAs(cached);
    }
}
