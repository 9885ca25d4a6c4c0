package dev.stockhold.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipal;

/**
 * A bearer credential a start gives itself, so that it can send its own HTTP requests through the real stack (the
 * token's verification, the role check, the body read) before it reports ready. The token is random, in the shape of a
 * compact JWS, known only to this process; it names a tenant of its own (random, so no other identity shares it) with
 * the {@link Roles#RESERVATIONS} role. {@link VerifiedTokens} accepts it only between {@link #open} and {@link #close}, a
 * few seconds before ready; after that the same string is a token no key verifies (401), like any other.
 */
@ApplicationScoped
public class WarmUpCredential {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /** The open credential: the token and the identity it stands for. */
    private record Open(byte[] token, JsonWebToken identity, long expiresAtMillis) {
    }

    private final SecureRandom random = new SecureRandom();
    /** The service's clock: tests move it instead of waiting for a lifetime to pass. */
    private final Clock clock;
    private volatile Open open;

    WarmUpCredential(Clock clock) {
        this.clock = clock;
    }

    /**
     * Opens a credential for at most {@code lifetime}, replacing any open one.
     *
     * @return the bearer token to send
     */
    public String open(String tenant, Duration lifetime) {
        if (!TenantClaim.isValid(tenant)) {
            throw new IllegalArgumentException("not a valid tenant: " + tenant);
        }
        String token = part(24) + "." + part(48) + "." + part(48);
        JwtClaims claims = new JwtClaims();
        claims.setSubject("stockhold-warm-up");
        claims.setClaim(TenantClaim.NAME, tenant);
        claims.setStringListClaim("groups", List.of(Roles.RESERVATIONS));
        Instant now = clock.instant();
        Instant expires = now.plus(lifetime);
        claims.setIssuedAt(NumericDate.fromSeconds(now.getEpochSecond()));
        claims.setExpirationTime(NumericDate.fromSeconds(expires.getEpochSecond() + 1)); // the claim in whole seconds, rounded up
        open = new Open(token.getBytes(StandardCharsets.US_ASCII), new DefaultJWTCallerPrincipal(token, "JWT", claims),
                expires.toEpochMilli());
        return token;
    }

    /** Forgets the credential: its token is refused from now on. */
    public void close() {
        open = null;
    }

    /**
     * The identity of the open credential if {@code token} is its token (compared in constant time), else null; null
     * once closed or past its lifetime.
     */
    JsonWebToken identityOf(String token) {
        Open current = open;
        if (current == null || clock.millis() >= current.expiresAtMillis()) {
            return null;
        }
        return MessageDigest.isEqual(current.token(), token.getBytes(StandardCharsets.US_ASCII)) ? current.identity() : null;
    }

    private String part(int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return BASE64URL.encodeToString(b);
    }
}
