package dev.stockhold.security;

import java.util.Optional;

import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;

/** The prod build refuses to start with the repository's dev or test keys: they are public. */
@IfBuildProfile("prod")
public class DevKeyGuard {

    void check(@Observes StartupEvent event,
            @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> location,
            @ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> key) {
        String configured = location.orElse("");
        if (configured.contains("dev-jwt/") || configured.contains("test-jwt/")) {
            throw new IllegalStateException("mp.jwt.verify.publickey.location points at a repository key (" + configured
                    + "); the prod profile trusts only a key you provide (MP_JWT_VERIFY_PUBLICKEY_LOCATION)");
        }
    }
}
