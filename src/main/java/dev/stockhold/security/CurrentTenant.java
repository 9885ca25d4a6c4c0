package dev.stockhold.security;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;

/** The tenant of the current request, read from the verified token and nowhere else. */
@RequestScoped
public class CurrentTenant {

    @Inject
    JsonWebToken token;
    @Inject
    SecurityIdentity identity;

    public String id() {
        return TenantClaim.of(identity).orElseThrow(UnauthorizedException::new);
    }

    /** The token's subject ({@code sub}), recorded as the actor of stock movements; null when the token has none. */
    public String subject() {
        return token.getSubject();
    }
}
