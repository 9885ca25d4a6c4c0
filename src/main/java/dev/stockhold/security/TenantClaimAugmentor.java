package dev.stockhold.security;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.stockhold.StockholdConfig;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * A token without a valid {@code tenant_id} is not an identity at all: 401 before any role check. A valid one is kept
 * on the identity ({@link TenantClaim#ATTRIBUTE}), so the claim is read once per request; and once per token while
 * {@link VerifiedTokens} hands out the same verified token again (remembered by that object's identity, weakly, so an
 * entry goes when the token cache lets the token go).
 */
@ApplicationScoped
public class TenantClaimAugmentor implements SecurityIdentityAugmentor {

    /** Null when the token cache is off: every request then carries a token object of its own. */
    private final Cache<JsonWebToken, Optional<String>> tenants;

    @Inject
    TenantClaimAugmentor(StockholdConfig config) {
        this(config.security().verifiedTokens());
    }

    /** @param size the tokens whose tenant is remembered, as many as the token cache keeps; 0 remembers none */
    TenantClaimAugmentor(int size) {
        this.tenants = size <= 0 ? null : Caffeine.newBuilder().weakKeys().maximumSize(size).build();
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken jwt)) {
            return Uni.createFrom().item(identity);
        }
        Optional<String> tenant = tenants == null ? tenantOf(jwt) : tenants.get(jwt, TenantClaimAugmentor::tenantOf);
        if (tenant.isEmpty()) {
            return Uni.createFrom().failure(new AuthenticationFailedException("token has no valid tenant_id claim"));
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity).addAttribute(TenantClaim.ATTRIBUTE, tenant.get()).build());
    }

    private static Optional<String> tenantOf(JsonWebToken jwt) {
        Object claim = jwt.getClaim(TenantClaim.NAME);
        return TenantClaim.isValid(claim) ? Optional.of((String) claim) : Optional.empty();
    }
}
