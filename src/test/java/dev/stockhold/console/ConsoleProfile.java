package dev.stockhold.console;

import java.util.List;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * The service as a deployment runs it behind an OpenID Connect provider ({@link TestIdentityProvider}, started for
 * this profile): it verifies tokens through the provider's key set and issuer, and tells the console to sign in there.
 */
public class ConsoleProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(TestIdentityProvider.class));
    }
}
