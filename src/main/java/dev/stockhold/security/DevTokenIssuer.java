package dev.stockhold.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import jakarta.enterprise.event.Observes;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.jwt.build.Jwt;

/**
 * Dev mode only: signs a token for tenant {@code demo} with the repository's DEV-ONLY key, logs it and writes it
 * to {@code target/dev-token}, so the API can be tried without an identity provider.
 */
@IfBuildProfile("dev")
public class DevTokenIssuer {

    static final Path TOKEN_FILE = Path.of("target", "dev-token");

    void issue(@Observes StartupEvent event) {
        String token = Jwt.issuer("https://stockhold.dev/dev-issuer")
                .audience("stockhold")
                .subject("demo-user")
                .upn("demo-user")
                .claim(TenantClaim.NAME, "demo")
                .groups(Set.of(Roles.RESERVATIONS, Roles.INVENTORY_ADMIN, Roles.OPS))
                .expiresIn(Duration.ofHours(12))
                .sign();
        try {
            Files.createDirectories(TOKEN_FILE.getParent());
            Files.writeString(TOKEN_FILE, token);
        } catch (IOException e) {
            Log.warnf("Could not write %s: %s", TOKEN_FILE, e.getMessage());
        }
        Log.infof("DEV token for tenant 'demo' (roles reservations, inventory-admin, ops), also in %s:%n%s",
                TOKEN_FILE, token);
    }
}
