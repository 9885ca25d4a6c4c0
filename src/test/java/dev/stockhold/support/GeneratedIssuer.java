package dev.stockhold.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;

/**
 * For tests of the packaged (prod profile) app: an identity provider made up for the run, and the other settings the
 * prod profile requires (audience, cursor secret, the events' schema base, the local broker's credentials). Its key pair is
 * generated now and never stored in the repository, so the prod profile trusts it exactly as it would trust a
 * real issuer, through {@code mp.jwt.verify.publickey.location}.
 */
public class GeneratedIssuer implements QuarkusTestResourceLifecycleManager {

    public static final String ISSUER = "https://stockhold.it/issuer";
    public static final String AUDIENCE = "stockhold-it";
    /** A cursor secret for the packaged app under test (the prod profile refuses the dev default). */
    public static final String CURSOR_SECRET = "stockhold-it-cursor-secret-of-this-test-run";
    private static PrivateKey signingKey;

    @Override
    public Map<String, String> start() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            signingKey = pair.getPrivate();
            Path publicKey = Files.createTempFile("stockhold-it-issuer", ".pem");
            publicKey.toFile().deleteOnExit();
            Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(pair.getPublic().getEncoded())
                    + "\n-----END PUBLIC KEY-----\n");
            return Map.of(
                    "mp.jwt.verify.publickey.location", publicKey.toAbsolutePath().toString(),
                    "mp.jwt.verify.issuer", ISSUER,
                    "stockhold.security.audience", AUDIENCE,
                    "stockhold.security.cursor-secret", CURSOR_SECRET,
                    "stockhold.events.schema-base-uri", "http://localhost/schemas/events/",
                    "rabbitmq-username", "guest",
                    "rabbitmq-password", "guest",
                    // the management interface on a free port, not the prod default 9000
                    "quarkus.management.port", "0");
        } catch (NoSuchAlgorithmException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        signingKey = null;
    }

    public static String token(String tenantId, String... roles) {
        return Jwt.issuer(ISSUER).audience(AUDIENCE).subject("it-user").claim("tenant_id", tenantId).groups(Set.of(roles))
                .expiresIn(Duration.ofMinutes(10)).sign(signingKey);
    }
}
