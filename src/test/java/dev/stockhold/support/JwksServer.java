package dev.stockhold.support;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;

/**
 * An identity provider's key set endpoint, as Keycloak, Auth0 or Entra publish one: a JWKS URL whose keys the tests
 * add, remove, and take offline while the service runs. The service is pointed at it through
 * {@code mp.jwt.verify.publickey.location}; an unknown {@code kid} makes smallrye-jwt fetch the set again (at most
 * every {@code smallrye.jwt.jwks.forced-refresh-interval} minutes; 0 here, so each rotation step is seen at once).
 */
public class JwksServer implements QuarkusTestResourceLifecycleManager {

    public static final String ISSUER = "https://stockhold.it/jwks-issuer";
    private static final Map<String, KeyPair> KEYS = new LinkedHashMap<>();
    private static final Map<String, KeyPair> PUBLISHED = new LinkedHashMap<>();
    private static final AtomicInteger FETCHES = new AtomicInteger();
    private static final AtomicInteger DROPPED = new AtomicInteger();
    private static HttpServer server;
    private static volatile boolean offline;
    private static int port;

    @Override
    public synchronized Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            port = server.getAddress().getPort();
            server.createContext("/jwks.json", exchange -> {
                if (offline) {
                    DROPPED.incrementAndGet();
                    exchange.close(); // the connection drops without an answer
                    return;
                }
                FETCHES.incrementAndGet();
                byte[] body = jwks().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return Map.of("mp.jwt.verify.publickey.location", "http://127.0.0.1:" + port + "/jwks.json",
                "mp.jwt.verify.issuer", ISSUER,
                "smallrye.jwt.jwks.forced-refresh-interval", "0");
    }

    @Override
    public synchronized void stop() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        PUBLISHED.clear();
    }

    /** Publishes these key ids (creating a key pair for a new one) and nothing else; the endpoint answers again. */
    public static synchronized void publish(String... kids) {
        offline = false;
        PUBLISHED.clear();
        for (String kid : kids) {
            PUBLISHED.put(kid, key(kid));
        }
    }

    /** The endpoint stops answering: every fetch loses its connection without an answer. */
    public static synchronized void offline() {
        offline = true;
    }

    public static int fetches() {
        return FETCHES.get();
    }

    /** Fetches tried while the endpoint was offline (each lost its connection). */
    public static int droppedFetches() {
        return DROPPED.get();
    }

    /** A token of the tenant with every role, signed by the key {@code kid} (published or not). */
    public static String token(String kid, String tenantId) {
        return token(kid, tenantId, Duration.ofMinutes(10));
    }

    /** {@link #token(String, String)} issued now by the service's clock ({@link MovableClock}), expiring {@code expiresIn} later. */
    public static String token(String kid, String tenantId, Duration expiresIn) {
        java.time.Instant now = MovableClock.now();
        return Jwt.issuer(ISSUER).audience(Tokens.AUDIENCE).subject("jwks-user").claim("tenant_id", tenantId)
                .groups(Set.of("reservations", "inventory-admin", "ops")).issuedAt(now).expiresAt(now.plus(expiresIn))
                .jws().keyId(kid).sign(key(kid).getPrivate());
    }

    private static synchronized KeyPair key(String kid) {
        return KEYS.computeIfAbsent(kid, k -> {
            try {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                return generator.generateKeyPair();
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static synchronized String jwks() {
        return PUBLISHED.entrySet().stream().map(e -> jwk(e.getKey(), (RSAPublicKey) e.getValue().getPublic()))
                .collect(Collectors.joining(",", "{\"keys\":[", "]}"));
    }

    /** One RS256 signing key as a JWK, as a provider's key set lists it. */
    public static String jwk(String kid, RSAPublicKey key) {
        return "{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\"" + kid + "\",\"n\":\""
                + base64url(key.getModulus()) + "\",\"e\":\"" + base64url(key.getPublicExponent()) + "\"}";
    }

    /** An unsigned big-endian integer in base64url without padding, as JWK members n and e are written. */
    public static String base64url(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
