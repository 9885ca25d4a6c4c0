package dev.stockhold.support;

import java.time.Duration;
import java.util.Set;

import io.smallrye.jwt.build.Jwt;

/** Signs tokens with the TEST-ONLY key that the test profile trusts. */
public final class Tokens {

    public static final String ISSUER = "https://stockhold.dev/test-issuer";
    /** The audience the test profile requires (stockhold.security.audience). */
    public static final String AUDIENCE = "stockhold";

    private Tokens() {
    }

    public static String forTenant(String tenantId, String... roles) {
        return Jwt.issuer(ISSUER)
                .subject("test-user")
                .audience(AUDIENCE)
                .claim("tenant_id", tenantId)
                .groups(Set.of(roles))
                .expiresIn(Duration.ofHours(1))
                .sign();
    }

    /** A token with every role, for tests that are not about roles. */
    public static String allRoles(String tenantId) {
        return forTenant(tenantId, "reservations", "inventory-admin", "ops");
    }
}
