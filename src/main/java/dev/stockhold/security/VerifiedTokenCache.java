package dev.stockhold.security;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.SecretKey;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;

import org.eclipse.microprofile.jwt.JsonWebToken;

import dev.stockhold.StockholdConfig;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * The MicroProfile JWT parser with a memory: a token string verified once (signature, issuer, expiry, all of
 * smallrye-jwt's checks) is not verified again for {@code stockhold.tokens.cache-ttl}, and never past its own
 * {@code exp}. The key is the whole token, signature included, so a changed byte is a different token and gets the
 * full check. Clients send the same token for minutes; this takes the RS256 verification and claim parsing off
 * nearly every request. Only {@link #parse(String)} (what the bearer-token mechanism calls) is cached.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class VerifiedTokenCache implements JWTParser {

    private record Verified(JsonWebToken token, long validUntilMillis) {
    }

    private final DefaultJWTParser delegate;
    private final int maxEntries;
    private final long ttlMillis;
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    VerifiedTokenCache(DefaultJWTParser delegate, StockholdConfig config) {
        this.delegate = delegate;
        this.maxEntries = config.tokens().cacheSize();
        this.ttlMillis = config.tokens().cacheTtl().toMillis();
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        long now = System.currentTimeMillis();
        Verified hit = verified.get(token);
        if (hit != null) {
            if (now < hit.validUntilMillis()) {
                return hit.token();
            }
            verified.remove(token, hit);
        }
        JsonWebToken fresh = delegate.parse(token);
        remember(token, fresh, now);
        return fresh;
    }

    private void remember(String token, JsonWebToken fresh, long now) {
        if (maxEntries <= 0) {
            return;
        }
        long expiresMillis = fresh.getExpirationTime() * 1000;
        long validUntil = Math.min(now + ttlMillis, expiresMillis);
        if (validUntil <= now) {
            return;
        }
        if (verified.size() >= maxEntries) {
            verified.values().removeIf(v -> v.validUntilMillis() <= now);
            if (verified.size() >= maxEntries) {
                return; // full of live entries: verify this one every time rather than evict someone else's
            }
        }
        verified.put(token, new Verified(fresh, validUntil));
    }

    /** Entries held now; for tests. */
    int size() {
        return verified.size();
    }

    @Override
    public JsonWebToken parse(String token, JWTAuthContextInfo context) throws ParseException {
        return delegate.parse(token, context);
    }

    @Override
    public JsonWebToken verify(String token, PublicKey key) throws ParseException {
        return delegate.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, SecretKey key) throws ParseException {
        return delegate.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, String secret) throws ParseException {
        return delegate.verify(token, secret);
    }

    @Override
    public JsonWebToken decrypt(String token, PrivateKey key) throws ParseException {
        return delegate.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, SecretKey key) throws ParseException {
        return delegate.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, String secret) throws ParseException {
        return delegate.decrypt(token, secret);
    }

    @Override
    public JsonWebToken parseOnly(String token) throws ParseException {
        return delegate.parseOnly(token);
    }
}
