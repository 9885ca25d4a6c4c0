package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The packaged jar (prod) refuses to start with a repository key, inline or copied to a path that names nothing. */
class DevKeyGuardIT {

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    @Test
    void shouldNotStartWithTheDevKeyInline() throws Exception {
        String devKey = Files.readString(Path.of("src/main/resources/dev-jwt/DEV-ONLY-public.pem"));
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY", devKey));
    }

    @Test
    void shouldNotStartWithTheTestKeyCopiedElsewhere() throws Exception {
        Path copy = Files.createTempFile("issuer", ".pem");
        Files.copy(Path.of("src/test/resources/test-jwt/TEST-ONLY-public.pem"), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", copy.toString()));
    }

    /** The attack that passed the earlier text check: a self-signed certificate of the dev key as the key location. */
    @Test
    void shouldNotStartWithACertificateOfTheDevKey() throws Exception {
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION",
                Path.of("src/test/resources/dev-key-forms/dev-certificate.pem").toAbsolutePath().toString()));
    }

    @Test
    void shouldNotStartWithoutAnAudienceOrWithTheDevCursorSecret() throws Exception {
        Map<String, String> noAudience = new java.util.HashMap<>(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey()));
        noAudience.put("STOCKHOLD_SECURITY_AUDIENCE", "");
        assertRefused(noAudience, "STOCKHOLD_SECURITY_AUDIENCE is not set");
        Map<String, String> devSecret = new java.util.HashMap<>(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey()));
        devSecret.put("STOCKHOLD_SECURITY_CURSOR_SECRET", ProdSecurityGuard.DEV_CURSOR_SECRET);
        assertRefused(devSecret, "STOCKHOLD_SECURITY_CURSOR_SECRET");
    }

    /** A key location with a typo: refused at the start instead of failing every request of a ready pod. */
    @Test
    void shouldNotStartWithAKeyLocationThatCannotBeRead() throws Exception {
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "/nonexistent/issuer.pem"), "neither a readable file");
    }

    /** No guest default: a prod relay to RabbitMQ needs credentials of its own. */
    @Test
    void shouldNotStartARelayToRabbitMqWithoutCredentials() throws Exception {
        Map<String, String> noCredentials = new java.util.HashMap<>(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey()));
        noCredentials.put("STOCKHOLD_RELAY_ENABLED", "true");
        noCredentials.put("RABBITMQ_USERNAME", "");
        noCredentials.put("RABBITMQ_PASSWORD", "");
        assertRefused(noCredentials, "RABBITMQ_USERNAME and RABBITMQ_PASSWORD must be set");
    }

    /** Only dev and test builds carry the dev private key and the dev token issuer. */
    @Test
    void shouldShipNeitherTheDevPrivateKeyNorTheDevTokenIssuer() throws Exception {
        List<String> entries = new java.util.ArrayList<>();
        try (var app = Files.list(Path.of("target/quarkus-app/app"))) {
            for (Path jar : app.filter(p -> p.toString().endsWith(".jar")).toList()) {
                try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
                    file.stream().forEach(entry -> entries.add(entry.getName()));
                }
            }
        }
        assertThat(entries).as("the application jar").contains("dev/stockhold/security/DevKeyGuard.class")
                .noneMatch(name -> name.endsWith(".pem") || name.contains("DevTokenIssuer"));
    }

    private static String ownKey() throws Exception {
        java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        Path file = Files.createTempFile("own-issuer", ".pem");
        Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n"
                + java.util.Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        return file.toString();
    }

    private static void assertRefused(Map<String, String> key) throws Exception {
        assertRefused(key, "repository key");
    }

    private static void assertRefused(Map<String, String> key, String reason) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", JAR.toString()).redirectErrorStream(true);
        builder.environment().put("QUARKUS_HTTP_PORT", "0");
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", "0");
        builder.environment().put("STOCKHOLD_SECURITY_AUDIENCE", "stockhold");
        builder.environment().put("STOCKHOLD_SECURITY_CURSOR_SECRET", "a-cursor-secret-of-this-test-only-0123456789");
        builder.environment().putIfAbsent("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/stockhold_test");
        builder.environment().putIfAbsent("QUARKUS_DATASOURCE_USERNAME", "postgres");
        builder.environment().put("MP_JWT_VERIFY_ISSUER", "https://issuer.example.com/");
        builder.environment().put("STOCKHOLD_RELAY_ENABLED", "false");
        builder.environment().putAll(key);
        Process process = builder.start();
        boolean exited = process.waitFor(60, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(exited).as("the jar must refuse to start: %s", output).isTrue();
        assertThat(process.exitValue()).isNotZero();
        assertThat(output).contains(reason);
    }
}
