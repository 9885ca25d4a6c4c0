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
 * cached (the very object handed out before comes back), and a third tenant's new token still finds room, where a
 * flooder holding the whole cache leaves none.
 */
@QuarkusTest
@TestProfile(VerifiedTokensCacheTest.SmallCache.class)
class VerifiedTokensCacheTest {

    public static class SmallCache implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>();
            // 300 tokens from one tenant are far more than the 64 kept in all. -Dnaive.cache.share=64 gives one tenant
            // the whole cache, as one shared bounded cache does: the newcomer's token is then not kept (this test fails)
            config.put("stockhold.security.verified-tokens", "64");
            config.put("stockhold.security.verified-tokens-per-tenant", System.getProperty("naive.cache.share", "16"));
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
        String newcomer = Tokens.allRoles("newcomer-" + System.nanoTime());
        Object kept = parser.parse(newcomer);
        assertThat(parser.parse(newcomer)).as("a third tenant's token finds room in the cache").isSameAs(kept);
    }
}
