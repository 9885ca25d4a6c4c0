package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * STOCKHOLD_SECURITY_AUDIENCE becomes smallrye-jwt's audience check; only the written-out opt-out turns it off, and
 * the prod guard refuses a start without it.
 */
class AudienceTest {

    @Test
    void shouldMapTheAudienceOntoTheJwtCheckUnlessItIsTheWrittenOutOptOut() {
        assertThat(audiences(Map.of("stockhold.security.audience", "stockhold,stockhold-admin")))
                .hasValue("stockhold,stockhold-admin");
        assertThat(audiences(Map.of("stockhold.security.audience", "unchecked"))).isEmpty();
        assertThat(audiences(Map.of())).isEmpty();
        // an explicit mp.jwt.verify.audiences wins
        assertThat(audiences(Map.of("stockhold.security.audience", "stockhold", "mp.jwt.verify.audiences", "other")))
                .hasValue("other");
    }

    @Test
    void shouldRefuseAProdStartWithoutAnAudienceOrWithTheDevCursorSecret() {
        String secret = "a-cursor-secret-of-at-least-32-characters";
        assertThat(ProdSecurityGuard.refusals(Optional.of(List.of("stockhold")), secret)).isEmpty();
        assertThat(ProdSecurityGuard.refusals(Optional.of(List.of(Audience.UNCHECKED)), secret)).isEmpty();
        assertThat(ProdSecurityGuard.refusals(Optional.empty(), secret)).singleElement().asString()
                .contains("STOCKHOLD_SECURITY_AUDIENCE");
        assertThat(ProdSecurityGuard.refusals(Optional.of(List.of("stockhold")), ProdSecurityGuard.DEV_CURSOR_SECRET))
                .singleElement().asString().contains("STOCKHOLD_SECURITY_CURSOR_SECRET");
        assertThat(ProdSecurityGuard.refusals(Optional.of(List.of("stockhold")), "short")).hasSize(1);
    }

    private static Optional<String> audiences(Map<String, String> properties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 100))
                .withSources(new Audience())
                .build();
        return config.getOptionalValue("mp.jwt.verify.audiences", String.class);
    }
}
