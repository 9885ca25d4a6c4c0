package dev.stockhold.security;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.UnauthorizedException;

/** The tenant of the current request, read from the verified token and nowhere else. */
@RequestScoped
public class CurrentTenant {

    @Inject
    JsonWebToken token;

    public String id() {
        Object claim = token.getClaim(TenantClaim.NAME);
        if (!TenantClaim.isValid(claim)) {
            throw new UnauthorizedException();
        }
        return (String) claim;
    }

    /** The token's subject ({@code sub}), recorded as the actor of stock movements; null when the token has none. */
    public String subject() {
        return token.getSubject();
    }
}
