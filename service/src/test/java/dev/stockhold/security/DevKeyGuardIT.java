package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    private static void assertRefused(Map<String, String> key) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", JAR.toString()).redirectErrorStream(true);
        builder.environment().put("QUARKUS_HTTP_PORT", "18099");
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
        assertThat(output).contains("repository key");
    }
}
