package dev.stockhold.security;

import java.util.regex.Pattern;

/** The {@code tenant_id} claim: the only source of a request's tenant. */
public final class TenantClaim {

    public static final String NAME = "tenant_id";
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private TenantClaim() {
    }

    public static boolean isValid(Object value) {
        return value instanceof String s && VALID.matcher(s).matches();
    }
}
