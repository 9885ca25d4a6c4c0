package dev.stockhold.console;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.stockhold.support.JwksServer;
import dev.stockhold.support.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;

/**
 * An OpenID Connect provider for the console's browser tests, as Keycloak or Entra serve one to a public client:
 * discovery, an authorization endpoint with a login page, a token endpoint that redeems each code once for the client and
 * redirect URI it was issued to and only with the PKCE verifier whose S256 challenge came with it, and a key set. The
 * service verifies its tokens exactly as it would a production provider's: through its JWKS URL and its issuer.
 */
public class TestIdentityProvider implements QuarkusTestResourceLifecycleManager {

    public static final String CLIENT_ID = "stockhold-console";
    public static final String PASSWORD = "console-test-password";
    private static final String KID = "console-test-key";
    private static final Map<String, User> USERS = new ConcurrentHashMap<>();
    private static final Map<String, Grant> GRANTS = new ConcurrentHashMap<>();
    private static final Set<String> REDIRECT_URIS = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger TOKENS_ISSUED = new AtomicInteger();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static KeyPair key;
    private static HttpServer server;
    private static String issuer;

    /** A person who can sign in: their tenant and roles become the access token's claims. */
    public record User(String name, String tenant, Set<String> roles) {
    }

    private record Grant(String clientId, String redirectUri, String challenge, String nonce, User user) {
    }

    @Override
    public Map<String, String> start() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            key = generator.generateKeyPair();
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            issuer = "http://127.0.0.1:" + server.getAddress().getPort();
            server.createContext("/.well-known/openid-configuration", x -> json(x, 200, discovery()));
            server.createContext("/jwks", x -> json(x, 200, jwks()));
            server.createContext("/authorize", this::authorize);
            server.createContext("/login", this::login);
            server.createContext("/token", this::token);
            server.start();
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return Map.of("mp.jwt.verify.publickey.location", issuer + "/jwks", "mp.jwt.verify.issuer", issuer,
                "stockhold.console.issuer", issuer, "stockhold.console.client-id", CLIENT_ID,
                "stockhold.console.scope", "openid stockhold");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    public static String issuer() {
        return issuer;
    }

    /** Registers a user who signs in with {@link #PASSWORD}. */
    public static void addUser(User user) {
        USERS.put(user.name(), user);
    }

    /** The console's redirect URI as registered at the provider: codes go to it and nowhere else. */
    public static void registerRedirectUri(String uri) {
        REDIRECT_URIS.add(uri);
    }

    public static int tokensIssued() {
        return TOKENS_ISSUED.get();
    }

    /** An access token for the user, as the token endpoint issues it (for setting up data through the API). */
    public static String accessToken(User user) {
        return Jwt.issuer(issuer).audience(Tokens.AUDIENCE).subject(user.name()).claim("preferred_username", user.name())
                .claim("tenant_id", user.tenant()).groups(user.roles()).expiresIn(Duration.ofMinutes(30))
                .jws().keyId(KID).sign(key.getPrivate());
    }

    private static String discovery() {
        return """
                {"issuer":"%1$s","authorization_endpoint":"%1$s/authorize","token_endpoint":"%1$s/token","jwks_uri":"%1$s/jwks",
                 "response_types_supported":["code"],"grant_types_supported":["authorization_code"],
                 "code_challenge_methods_supported":["S256"],"subject_types_supported":["public"],
                 "id_token_signing_alg_values_supported":["RS256"],"token_endpoint_auth_methods_supported":["none"]}
                """.formatted(issuer);
    }

    private static String jwks() {
        return "{\"keys\":[" + JwksServer.jwk(KID, (RSAPublicKey) key.getPublic()) + "]}";
    }

    /** The login page for a valid authorization request; an invalid one is refused here, never redirected. */
    private void authorize(HttpExchange x) throws IOException {
        Map<String, String> q = form(x.getRequestURI().getRawQuery());
        if (!CLIENT_ID.equals(q.get("client_id")) || !REDIRECT_URIS.contains(q.get("redirect_uri"))
                || !"code".equals(q.get("response_type")) || !"S256".equals(q.get("code_challenge_method"))
                || q.get("code_challenge") == null || q.get("state") == null) {
            page(x, 400, "<h1>Invalid authorization request</h1>");
            return;
        }
        StringBuilder hidden = new StringBuilder();
        for (String name : new String[]{ "redirect_uri", "state", "nonce", "code_challenge" }) {
            hidden.append("<input type=\"hidden\" name=\"").append(name).append("\" value=\"").append(escape(q.getOrDefault(name, "")))
                    .append("\">");
        }
        page(x, 200, """
                <h1>Test identity provider</h1>
                <form method="post" action="/login">%s
                <label>Username <input id="username" name="username" autocomplete="username"></label>
                <label>Password <input id="password" name="password" type="password"></label>
                <button id="sign-in" type="submit">Sign in</button></form>
                """.formatted(hidden));
    }

    private void login(HttpExchange x) throws IOException {
        Map<String, String> f = form(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        User user = USERS.get(f.get("username"));
        if (user == null || !PASSWORD.equals(f.get("password")) || !REDIRECT_URIS.contains(f.get("redirect_uri"))) {
            page(x, 401, "<h1>Wrong username or password</h1>");
            return;
        }
        String code = random();
        GRANTS.put(code, new Grant(CLIENT_ID, f.get("redirect_uri"), f.get("code_challenge"), f.get("nonce"), user));
        x.getResponseHeaders().add("Location", f.get("redirect_uri") + "?code=" + code + "&state="
                + URLEncoder.encode(f.get("state"), StandardCharsets.UTF_8));
        x.sendResponseHeaders(302, -1);
        x.close();
    }

    /** RFC 6749 section 4.1.3 with RFC 7636 section 4.6: a code is redeemed once, by its client, with its verifier. */
    private void token(HttpExchange x) throws IOException {
        Map<String, String> f = form(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        Grant grant = f.get("code") == null ? null : GRANTS.remove(f.get("code"));
        if (!"authorization_code".equals(f.get("grant_type")) || grant == null || !grant.clientId().equals(f.get("client_id"))
                || !grant.redirectUri().equals(f.get("redirect_uri")) || f.get("code_verifier") == null
                || !grant.challenge().equals(s256(f.get("code_verifier")))) {
            json(x, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        TOKENS_ISSUED.incrementAndGet();
        String idToken = Jwt.issuer(issuer).audience(CLIENT_ID).subject(grant.user().name()).claim("nonce", grant.nonce())
                .expiresIn(Duration.ofMinutes(30)).jws().keyId(KID).sign(key.getPrivate());
        json(x, 200, "{\"access_token\":\"" + accessToken(grant.user()) + "\",\"token_type\":\"Bearer\",\"expires_in\":1800,"
                + "\"id_token\":\"" + idToken + "\"}");
    }

    static String s256(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String random() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static Map<String, String> form(String raw) {
        Map<String, String> values = new HashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                values.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    private static String escape(String value) {
        return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void page(HttpExchange x, int status, String body) throws IOException {
        send(x, status, "text/html; charset=utf-8", "<!doctype html><html lang=\"en\"><head><title>Test IdP</title></head><body>"
                + body + "</body></html>");
    }

    private static void json(HttpExchange x, int status, String body) throws IOException {
        // the console reads discovery, keys and tokens from another origin (CORS), as it does at a real provider
        x.getResponseHeaders().add("Access-Control-Allow-Origin", "*");
        send(x, status, "application/json", body);
    }

    private static void send(HttpExchange x, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().add("Content-Type", type);
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }
}
