package dev.stockhold.security;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
import com.github.benmanes.caffeine.cache.RemovalCause;

import dev.stockhold.Digests;
import dev.stockhold.StockholdConfig;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * Bearer tokens already verified, so a client that sends the same token on every request pays for its RS256 signature
 * check and claim parsing once. Keyed by the SHA-256 of the whole token (a token altered in any byte is another key and
 * is verified in full; every part must be canonical base64url, so one token has one spelling and one key), and trusted
 * at most until the token's {@code exp} and at most {@code stockhold.security.verified-token-ttl}, so a key the provider
 * removes stops being honoured within that time. Each tenant's entries are bounded by
 * {@code stockhold.security.verified-tokens-per-tenant} and evicted among themselves: a tenant that mints tokens by the
 * thousand flushes its own entries, never another's; past {@code stockhold.security.verified-tokens} in all, new tokens
 * are verified without being kept. A token the parser refuses is never cached; the parser's other methods (another
 * issuer's settings, a given key) are never answered from the cache. Both bounds, and Stockhold's own checks below, read
 * the service's {@link Clock} (the system clock in production), so tests move time instead of waiting for it.
 */
@Decorator
@Priority(10)
abstract class VerifiedTokens implements JWTParser {

    private static final String NOT_COMPACT = "The token is not a compact JWS of unpadded base64url parts";
    /** The value of each base64url character (RFC 4648 section 5), -1 for every other character. */
    private static final byte[] BASE64URL = new byte[128];

    static {
        java.util.Arrays.fill(BASE64URL, (byte) -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        for (int i = 0; i < alphabet.length(); i++) {
            BASE64URL[alphabet.charAt(i)] = (byte) i;
        }
    }

    private final JWTParser parser;
    private final WarmUpCredential warmUp;
    private final Clock clock;
    private final Duration maxLifetime;
    private final Duration clockSkew;
    private final int perTenant;
    private final int total;
    private final long ttlNanos;
    /** The tenant of every cached token, by the token's key; null when the cache is off. */
    private final Map<ByteBuffer, String> verified;
    /** Each tenant's keys, evicted among themselves; eviction removes the entry from {@link #verified}. */
    private final Map<String, Cache<ByteBuffer, JsonWebToken>> byTenant = new ConcurrentHashMap<>();

    @Inject
    VerifiedTokens(@Delegate @Any JWTParser parser, WarmUpCredential warmUp, StockholdConfig config, Clock clock,
            @ConfigProperty(name = "mp.jwt.verify.clock.skew", defaultValue = "60") int clockSkewSeconds) {
        this.parser = parser;
        this.warmUp = warmUp;
        this.clock = clock;
        this.maxLifetime = config.security().maxTokenLifetime();
        this.clockSkew = Duration.ofSeconds(clockSkewSeconds);
        this.total = config.security().verifiedTokens();
        this.perTenant = Math.min(total, config.security().verifiedTokensPerTenant());
        this.ttlNanos = config.security().verifiedTokenTtl().toNanos();
        this.verified = total <= 0 || perTenant <= 0 ? null : new ConcurrentHashMap<>();
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        requireCanonical(token);
        if (verified == null) {
            JsonWebToken self = warmUp.identityOf(token);
            return self != null ? self : requireValidClaims(parser.parse(token));
        }
        ByteBuffer key = ByteBuffer.wrap(Digests.sha256(token)); // canonical: ASCII only
        String cachedFor = verified.get(key);
        Cache<ByteBuffer, JsonWebToken> cache = cachedFor == null ? null : byTenant.get(cachedFor);
        JsonWebToken known = cache == null ? null : cache.getIfPresent(key); // null once past exp or the ttl
        if (known != null) {
            return known;
        }
        // the start's own warm-up credential, checked only on a miss (never on the path of a cached token), and never
        // cached: it stops working when the warm-up ends
        JsonWebToken self = warmUp.identityOf(token);
        if (self != null) {
            return self;
        }
        JsonWebToken parsed = requireValidClaims(parser.parse(token));
        Object tenant = parsed.getClaim(TenantClaim.NAME);
        if (TenantClaim.isValid(tenant) && (verified.size() < total || verified.containsKey(key))) {
            verified.put(key, (String) tenant);
            tenantCache((String) tenant).put(key, parsed);
        }
        return parsed;
    }

    private Cache<ByteBuffer, JsonWebToken> tenantCache(String tenant) {
        return byTenant.computeIfAbsent(tenant, t -> Caffeine.newBuilder().maximumSize(perTenant)
                .ticker(() -> epochNanos(clock.instant())).expireAfter(new UntilExpiry(ttlNanos, clock)).executor(Runnable::run)
                .<ByteBuffer, JsonWebToken>removalListener((key, token, cause) -> {
                    if (key != null && cause != RemovalCause.REPLACED) {
                        verified.remove(key);
                    }
                }).build());
    }

    /**
     * A compact JWS whose every part is canonical unpadded base64url: the bits a last character leaves over are zero.
     * Otherwise "=" appended, or another last character that decodes to the same bytes, would make the same signed token
     * a new cache key each time.
     */
    static void requireCanonical(String token) throws ParseException {
        if (token == null || token.length() > 16_384) {
            throw new ParseException(NOT_COMPACT);
        }
        // One pass (the token arrives on every request): three non-empty parts of base64url characters, two dots
        int parts = 0;
        int start = 0;
        for (int i = 0; i <= token.length(); i++) {
            char c = i == token.length() ? '.' : token.charAt(i);
            if (c != '.' && (c >= 128 || BASE64URL[c] < 0)) {
                throw new ParseException(NOT_COMPACT);
            }
            if (c == '.') {
                if (i == start || ++parts > 3) {
                    throw new ParseException(NOT_COMPACT);
                }
                // the bits the part's last character leaves over are zero, and no part ends after one character of six bits
                int leftover = ((i - start) * 6) % 8;
                if (leftover == 6 || leftover != 0 && (BASE64URL[token.charAt(i - 1)] & ((1 << leftover) - 1)) != 0) {
                    throw new ParseException("The token has a part that is not canonical base64url");
                }
                start = i + 1;
            }
        }
        if (parts != 3) {
            throw new ParseException(NOT_COMPACT);
        }
    }

    /**
     * The signature, issuer, audience and expiry are smallrye-jwt's checks; these are Stockhold's: a token has an
     * {@code iat} no later than now plus the clock skew, has not expired by the service's clock (smallrye-jwt checks
     * {@code exp} with the system clock; with the system clock as the service's, both agree), and lives
     * ({@code exp - iat}) at most {@code stockhold.security.max-token-lifetime}, so a leaked token is not good for
     * years; all of it in whole seconds, so an {@code exp} of 1e20 is refused like any other, not a 500. A {@code sub},
     * which stock movements record as their actor, is 1-255 characters of valid Unicode without control characters.
     */
    private JsonWebToken requireValidClaims(JsonWebToken token) throws ParseException {
        long issuedAt = token.getIssuedAtTime();
        long expires = token.getExpirationTime();
        long now = clock.millis();
        long skew = clockSkew.toMillis();
        if (issuedAt <= 0) {
            throw new ParseException("The token has no iat claim");
        }
        if (issuedAt > (now + skew) / 1000 + 1 || issuedAt * 1000 > now + skew) {
            throw new ParseException("The token's iat is in the future beyond the clock skew");
        }
        if (expires - issuedAt > maxLifetime.toSeconds()) {
            throw new ParseException("The token's lifetime (exp - iat) exceeds stockhold.security.max-token-lifetime");
        }
        if (expires * 1000 + skew < now) { // exp is bounded by iat and the lifetime here: no overflow
            throw new ParseException("The token has expired");
        }
        String subject = token.getSubject();
        if (subject != null && !isCleanSubject(subject)) {
            throw new ParseException("The token's sub is not 1-255 characters of valid Unicode without control characters");
        }
        return token;
    }

    /** 1-255 characters, valid Unicode without NUL (the rule for every client string), and no control characters. */
    static boolean isCleanSubject(String subject) {
        return !subject.isEmpty() && subject.length() <= 255 && dev.stockhold.web.Text.isClean(subject)
                && subject.chars().noneMatch(Character::isISOControl);
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
