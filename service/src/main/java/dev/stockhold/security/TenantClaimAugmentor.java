package dev.stockhold.security;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * A token without a valid {@code tenant_id} is not an identity at all: 401 before any role check. A valid one is kept
 * on the identity ({@link TenantClaim#ATTRIBUTE}), so the claim is read once per request.
 */
@ApplicationScoped
public class TenantClaimAugmentor implements SecurityIdentityAugmentor {

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken jwt)) {
            return Uni.createFrom().item(identity);
        }
        Object tenant = jwt.getClaim(TenantClaim.NAME);
        if (!TenantClaim.isValid(tenant)) {
            return Uni.createFrom().failure(new AuthenticationFailedException("token has no valid tenant_id claim"));
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity).addAttribute(TenantClaim.ATTRIBUTE, tenant).build());
    }
}
