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
        Map<String, String> noSchemaBase = new java.util.HashMap<>(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey()));
        noSchemaBase.put("STOCKHOLD_EVENTS_SCHEMA_BASE_URI", "");
        assertRefused(noSchemaBase, "STOCKHOLD_EVENTS_SCHEMA_BASE_URI is not set");
    }

    /** A key location with a typo: refused at the start instead of failing every request of a ready pod. */
    @Test
    void shouldNotStartWithAKeyLocationThatCannotBeRead() throws Exception {
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", "/nonexistent/issuer.pem"), "/nonexistent/issuer.pem");
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

    /** The console: a dev token file would be handed to anyone who opens it; a broken issuer would enter its policy. */
    @Test
    void shouldNotStartWithAConsoleDevTokenFileOrAnIssuerThatIsNoUrl() throws Exception {
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey(), "STOCKHOLD_CONSOLE_DEV_TOKEN_FILE", file("a-token")),
                "STOCKHOLD_CONSOLE_DEV_TOKEN_FILE is set");
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey(), "STOCKHOLD_CONSOLE_ISSUER", "https://idp.example; script-src *"),
                "STOCKHOLD_CONSOLE_ISSUER");
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

    /**
     * The wrappings a second review found passing a guard that parsed keys itself: smallrye-jwt reads each of them as
     * the dev key, so each must refuse the start (the guard now asks the configured verifier).
     */
    @Test
    void shouldNotStartWithTheDevKeyWrappedAsSmallryeJwtReadsIt() throws Exception {
        String pem = Files.readString(Path.of("src/main/resources/dev-jwt/DEV-ONLY-public.pem")).strip();
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        java.math.BigInteger modulus = ((java.security.interfaces.RSAPublicKey) java.security.KeyFactory.getInstance("RSA")
                .generatePublic(new java.security.spec.X509EncodedKeySpec(java.util.Base64.getDecoder().decode(base64)))).getModulus();
        String standardN = java.util.Base64.getEncoder().withoutPadding().encodeToString(unsigned(modulus));
        String devJwk = "{\"kty\":\"RSA\",\"kid\":\"dev\",\"e\":\"AQAB\",\"n\":\"" + standardN + "\"}";

        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY", pem.replace("\n", "\\n")), "-ONLY key");
        String[] lines = pem.split("\n");
        lines[2] = lines[2].substring(0, 20) + "\\n" + lines[2].substring(20);
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", file(String.join("\n", lines))), "-ONLY key");
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", file(devJwk)), "-ONLY key");
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", file("{\"keys\":[" + ownJwk("own") + "," + devJwk + "]}")),
                "-ONLY key");
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION",
                file(pem.replace("-----END PUBLIC KEY-----", "-----END RSA PUBLIC KEY-----"))), "-ONLY key");
        assertRefused(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey(),
                "SMALLRYE_JWT_VERIFY_KEY_LOCATION", file(pem)), "-ONLY key");
    }

    /** A key of the deployment's own, alone or in a key set beside others, starts. */
    @Test
    void shouldStartWithAKeyOfYourOwn() throws Exception {
        assertStarts(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", ownKey()));
        assertStarts(Map.of("MP_JWT_VERIFY_PUBLICKEY_LOCATION", file("{\"keys\":[" + ownJwk("a") + "," + ownJwk("b") + "]}")));
    }

    private static String file(String content) throws Exception {
        Path file = Files.createTempFile("issuer-key", ".txt");
        Files.writeString(file, content);
        return file.toString();
    }

    private static String ownJwk(String kid) throws Exception {
        java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        java.security.interfaces.RSAPublicKey key = (java.security.interfaces.RSAPublicKey) generator.generateKeyPair().getPublic();
        return "{\"kty\":\"RSA\",\"kid\":\"" + kid + "\",\"e\":\"AQAB\",\"n\":\""
                + java.util.Base64.getEncoder().withoutPadding().encodeToString(unsigned(key.getModulus())) + "\"}";
    }

    private static byte[] unsigned(java.math.BigInteger value) {
        byte[] bytes = value.toByteArray();
        return bytes[0] == 0 ? java.util.Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
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
        assertRefused(key, "-ONLY key");
    }

    private static void assertRefused(Map<String, String> key, String reason) throws Exception {
        Started run = start(key);
        assertThat(run.listening()).as("the jar must refuse to start: %s", run.output()).isFalse();
        assertThat(run.exitValue()).as(run.output()).isNotZero();
        assertThat(run.output()).contains(reason);
    }

    private static void assertStarts(Map<String, String> key) throws Exception {
        Started run = start(key);
        assertThat(run.listening()).as("the jar must start: %s", run.output()).isTrue();
    }

    private record Started(boolean listening, int exitValue, String output) {
    }

    /** Runs the jar until it listens (then stops it) or exits, at most 60 s. */
    private static Started start(Map<String, String> key) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", JAR.toString()).redirectErrorStream(true);
        builder.environment().put("QUARKUS_HTTP_PORT", "0");
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", "0");
        builder.environment().put("STOCKHOLD_SECURITY_AUDIENCE", "stockhold");
        builder.environment().put("STOCKHOLD_SECURITY_CURSOR_SECRET", "a-cursor-secret-of-this-test-only-0123456789");
        builder.environment().put("STOCKHOLD_EVENTS_SCHEMA_BASE_URI", "https://schemas.example.com/stockhold/");
        builder.environment().putIfAbsent("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/stockhold_test");
        builder.environment().putIfAbsent("QUARKUS_DATASOURCE_USERNAME", "postgres");
        builder.environment().put("MP_JWT_VERIFY_ISSUER", "https://issuer.example.com/");
        builder.environment().put("STOCKHOLD_RELAY_ENABLED", "false");
        builder.environment().putAll(key);
        Process process = builder.start();
        StringBuilder output = new StringBuilder();
        boolean listening = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (java.io.BufferedReader lines = new java.io.BufferedReader(
                new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; System.nanoTime() < deadline && (line = lines.readLine()) != null;) {
                output.append(line).append('\n');
                if (line.contains("Listening on")) {
                    listening = true;
                    break;
                }
            }
        } finally {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        return new Started(listening, process.exitValue(), output.toString());
    }
}
