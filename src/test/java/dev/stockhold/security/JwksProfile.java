package dev.stockhold.security;

import java.util.List;
import java.util.Map;

import dev.stockhold.support.JwksServer;
import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service verifying tokens against a key set it fetches from an identity provider ({@link JwksServer}, started
 * for this profile), trusting a verified token at most 6 s ({@code stockhold.security.verified-token-ttl}) with a clock
 * skew of 1 s (0 would mean the default, 60 s): the parser refuses a token a second after its exp, well before the
 * cache's ttl would let it go.
 */
public class JwksProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(JwksServer.class));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("stockhold.security.verified-token-ttl", "6s", "mp.jwt.verify.clock.skew", "1");
    }
}
