package dev.stockhold.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import jakarta.enterprise.event.Observes;

import dev.stockhold.StockholdConfig;
import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.jwt.build.Jwt;

/**
 * Dev mode only: signs a token for tenant {@code demo} with the repository's DEV-ONLY key, logs it and writes it
 * to {@code target/dev-token} ({@code stockhold.console.dev-token-file}, which the console signs in with), so the API
 * can be tried without an identity provider.
 */
@IfBuildProfile("dev")
public class DevTokenIssuer {

    void issue(@Observes StartupEvent event, StockholdConfig config) {
        // where the dev profile's stockhold.console.dev-token-file points: the console signs in with it
        Path tokenFile = Path.of(config.console().devTokenFile().orElse("target/dev-token"));
        String token = Jwt.issuer("https://stockhold.dev/dev-issuer")
                .audience("stockhold")
                .subject("demo-user")
                .upn("demo-user")
                .claim(TenantClaim.NAME, "demo")
                .groups(Set.of(Roles.RESERVATIONS, Roles.INVENTORY_ADMIN, Roles.OPS))
                .expiresIn(Duration.ofHours(12))
                .sign();
        try {
            Files.createDirectories(tokenFile.getParent());
            Files.writeString(tokenFile, token);
        } catch (IOException e) {
            Log.warnf("Could not write %s: %s", tokenFile, e.getMessage());
        }
        Log.infof("DEV token for tenant 'demo' (roles reservations, inventory-admin, ops), also in %s:%n%s",
                tokenFile, token);
    }
}
