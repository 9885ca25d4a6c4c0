package dev.stockhold.security;

import java.util.Optional;
import java.util.regex.Pattern;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * The {@code tenant_id} claim: the only source of a request's tenant. {@link TenantClaimAugmentor} reads it once per
 * request and keeps it on the verified identity as {@link #ATTRIBUTE}; everything after it reads the attribute. (Each
 * read of a claim the MicroProfile JWT spec does not name costs smallrye-jwt an exception with its stack trace.)
 */
public final class TenantClaim {

    public static final String NAME = "tenant_id";
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** The attribute of a verified identity that holds its valid tenant, set by {@link TenantClaimAugmentor}. */
    public static final String ATTRIBUTE = "dev.stockhold.tenant";

    private TenantClaim() {
    }

    public static boolean isValid(Object value) {
        return value instanceof String s && VALID.matcher(s).matches();
    }

    /** The tenant of a verified identity; empty for an anonymous one. */
    public static Optional<String> of(SecurityIdentity identity) {
        return identity != null && identity.getAttribute(ATTRIBUTE) instanceof String tenant ? Optional.of(tenant) : Optional.empty();
    }
}
