package dev.stockhold.security;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import dev.stockhold.Digests;
import dev.stockhold.StockholdConfig;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * Bearer tokens already verified, so a client that sends the same token on every request pays for its RS256 signature
 * check and claim parsing once. Keyed by the SHA-256 of the whole token (a token altered in any byte is another key and
 * is verified in full), bounded in number (Caffeine, size-evicted), and trusted at most until the token's {@code exp}
 * and at most {@code stockhold.security.verified-token-ttl}, so a key the provider removes stops being honoured within
 * that time. A token the parser refuses is never cached; the parser's other methods (another issuer's settings, a
 * given key) are never answered from the cache. Both bounds, and Stockhold's own checks below, read the service's
 * {@link Clock} (the system clock in production), so tests move time instead of waiting for it.
 */
@Decorator
@Priority(10)
abstract class VerifiedTokens implements JWTParser {

    private final JWTParser parser;
    private final Clock clock;
    private final Duration maxLifetime;
    private final Duration clockSkew;
    /** Null when the cache is off. */
    private final Cache<ByteBuffer, JsonWebToken> verified;

    @Inject
    VerifiedTokens(@Delegate @Any JWTParser parser, StockholdConfig config, Clock clock,
            @ConfigProperty(name = "mp.jwt.verify.clock.skew", defaultValue = "60") int clockSkewSeconds) {
        this.parser = parser;
        this.clock = clock;
        this.maxLifetime = config.security().maxTokenLifetime();
        this.clockSkew = Duration.ofSeconds(clockSkewSeconds);
        int size = config.security().verifiedTokens();
        long ttlNanos = config.security().verifiedTokenTtl().toNanos();
        this.verified = size <= 0 ? null
                : Caffeine.newBuilder().maximumSize(size).ticker(() -> epochNanos(clock.instant()))
                        .expireAfter(new UntilExpiry(ttlNanos, clock)).build();
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        if (verified == null) {
            return requireBoundedLifetime(parser.parse(token));
        }
        ByteBuffer key = ByteBuffer.wrap(Digests.sha256(token));
        JsonWebToken known = verified.getIfPresent(key);
        if (known != null) {
            return known;
        }
        JsonWebToken parsed = requireBoundedLifetime(parser.parse(token));
        verified.put(key, parsed);
        return parsed;
    }

    /**
     * The signature, issuer, audience and expiry are smallrye-jwt's checks; these are Stockhold's: a token has an
     * {@code iat} no later than now plus the clock skew, has not expired by the service's clock (smallrye-jwt checks
     * {@code exp} with the system clock; with the system clock as the service's, both agree), and lives
     * ({@code exp - iat}) at most {@code stockhold.security.max-token-lifetime}, so a leaked token is not good for
     * years.
     */
    private JsonWebToken requireBoundedLifetime(JsonWebToken token) throws ParseException {
        long issuedAt = token.getIssuedAtTime();
        if (issuedAt <= 0) {
            throw new ParseException("The token has no iat claim");
        }
        Instant now = clock.instant();
        if (Instant.ofEpochSecond(issuedAt).isAfter(now.plus(clockSkew))) {
            throw new ParseException("The token's iat is in the future beyond the clock skew");
        }
        if (Instant.ofEpochSecond(token.getExpirationTime()).plus(clockSkew).isBefore(now)) {
            throw new ParseException("The token has expired");
        }
        if (token.getExpirationTime() - issuedAt > maxLifetime.toSeconds()) {
            throw new ParseException("The token's lifetime (exp - iat) exceeds stockhold.security.max-token-lifetime");
        }
        return token;
    }

    private static long epochNanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    /** A verified token is trusted until its {@code exp} and at most {@code ttl}. */
    private record UntilExpiry(long ttlNanos, Clock clock) implements Expiry<ByteBuffer, JsonWebToken> {
        @Override
        public long expireAfterCreate(ByteBuffer key, JsonWebToken token, long currentTime) {
            long untilExp = Duration.between(clock.instant(), Instant.ofEpochSecond(token.getExpirationTime())).toNanos();
            return Math.max(0, Math.min(ttlNanos, untilExp));
        }

        @Override
        public long expireAfterUpdate(ByteBuffer key, JsonWebToken token, long currentTime, long currentDuration) {
            return currentDuration;
        }

        @Override
        public long expireAfterRead(ByteBuffer key, JsonWebToken token, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
