package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;

class TenantClaimAugmentorTest {

    @Test
    void shouldKeepTheTenantOnTheIdentity() {
        SecurityIdentity augmented = augment(new TenantClaimAugmentor(10), new Token(Map.of("tenant_id", "acme")));
        assertThat(TenantClaim.of(augmented)).contains("acme");
        assertThat(augmented.getPrincipal()).isInstanceOf(Token.class);
    }

    @Test
    void shouldRefuseATokenWithoutAValidTenant() {
        TenantClaimAugmentor augmentor = new TenantClaimAugmentor(10);
        for (Token token : new Token[]{ new Token(Map.of()), new Token(Map.of("tenant_id", "a b")),
                new Token(Map.of("tenant_id", 42)) }) {
            assertThatThrownBy(() -> augment(augmentor, token)).isInstanceOf(AuthenticationFailedException.class);
            assertThatThrownBy(() -> augment(augmentor, token)).as("refused again when handed out again")
                    .isInstanceOf(AuthenticationFailedException.class);
        }
    }

    /** The token cache hands out the same verified token object again: its claim is read once, not per request. */
    @Test
    void shouldReadTheClaimOncePerVerifiedToken() {
        TenantClaimAugmentor augmentor = new TenantClaimAugmentor(10);
        Token cached = new Token(Map.of("tenant_id", "acme"));
        for (int i = 0; i < 5; i++) {
            assertThat(TenantClaim.of(augment(augmentor, cached))).contains("acme");
        }
        assertThat(cached.reads.get()).isEqualTo(1);

        Token other = new Token(Map.of("tenant_id", "globex")); // another object: read on its own, never confused
        assertThat(TenantClaim.of(augment(augmentor, other))).contains("globex");
        assertThat(other.reads.get()).isEqualTo(1);
    }

    @Test
    void shouldReadTheClaimPerRequestWhenTheTokenCacheIsOff() {
        TenantClaimAugmentor augmentor = new TenantClaimAugmentor(0);
        Token token = new Token(Map.of("tenant_id", "acme"));
        augment(augmentor, token);
        augment(augmentor, token);
        assertThat(token.reads.get()).isEqualTo(2);
    }

    @Test
    void shouldLeaveAnAnonymousIdentityAlone() {
        SecurityIdentity anonymous = QuarkusSecurityIdentity.builder().setAnonymous(true).build();
        assertThat(new TenantClaimAugmentor(10).augment(anonymous, null).await().indefinitely()).isSameAs(anonymous);
        assertThat(TenantClaim.of(anonymous)).isEmpty();
    }

    private static SecurityIdentity augment(TenantClaimAugmentor augmentor, Token token) {
        return augmentor.augment(QuarkusSecurityIdentity.builder().setPrincipal(token).build(), null).await().indefinitely();
    }

    /** A verified token with the given claims, counting how often tenant_id is read. */
    private static final class Token implements JsonWebToken {
        private final Map<String, Object> claims;
        final AtomicInteger reads = new AtomicInteger();

        Token(Map<String, Object> claims) {
            this.claims = claims;
        }

        @Override
        public String getName() {
            return "user";
        }

        @Override
        public Set<String> getClaimNames() {
            return claims.keySet();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T getClaim(String name) {
            if (TenantClaim.NAME.equals(name)) {
                reads.incrementAndGet();
            }
            return (T) claims.get(name);
        }
    }
}
