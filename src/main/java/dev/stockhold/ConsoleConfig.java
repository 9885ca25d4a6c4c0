package dev.stockhold;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.WithDefault;

/**
 * {@code stockhold.console}: the operator console served at {@code /console} and the identity provider it signs people
 * in with (OpenID Connect, authorization code with PKCE). Part of {@link StockholdConfig}.
 */
public interface ConsoleConfig {
    /** Whether the service serves the console at {@code /console}; off, every path under it is 404. */
    @WithDefault("true")
    boolean enabled();

    /**
     * The OpenID Connect issuer the console signs in with: its discovery document is read from
     * {@code <issuer>/.well-known/openid-configuration}. Without it the console cannot sign anyone in.
     */
    Optional<String> issuer();

    /** The console's client id at the identity provider: a public client, with {@code <origin>/console/} as redirect URI. */
    @WithDefault("stockhold-console")
    String clientId();

    /**
     * The scopes the console asks for, space-separated. The access token must carry the tenant claim, the roles and
     * Stockhold's audience, which many providers add only for a scope of their own.
     */
    @WithDefault("openid")
    String scope();

    /**
     * Origins the console's pages may fetch from besides the service and the issuer's origin (the
     * Content-Security-Policy's {@code connect-src}): the provider's token endpoint, when it lives on another origin.
     */
    Optional<List<String>> connectSrc();

    /**
     * A file holding a bearer token the console uses without asking anyone to sign in. Dev mode names the dev token
     * it writes; the prod profile refuses to start with it set.
     */
    Optional<String> devTokenFile();
}
