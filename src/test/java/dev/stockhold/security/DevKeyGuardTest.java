package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileInputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;

/**
 * The prod guard's decision (the guard itself runs only in prod), for each way a repository key reaches smallrye-jwt:
 * the guard asks smallrye-jwt's verifier whether it accepts the shipped probe tokens, so every wrapping the verifier
 * reads is refused, and a key of the deployment's own in the same wrapping is not.
 */
class DevKeyGuardTest {

    private static final Path FORMS = Path.of("src/test/resources/dev-key-forms");
    private static final List<DevKeyGuard.Probe> PROBES = DevKeyGuard.probes();

    @Test
    void shouldShipAProbePerAlgorithmForBothRepositoryKeys() {
        assertThat(PROBES).extracting(DevKeyGuard.Probe::key).containsOnly("dev", "test");
        assertThat(PROBES).hasSize(12);
        for (String key : List.of("DEV-ONLY", "TEST-ONLY")) {
            String pem = pem(key);
            for (DevKeyGuard.Probe probe : PROBES.stream().filter(p -> key.startsWith(p.key().toUpperCase())).toList()) {
                JWTAuthContextInfo context = inline(pem);
                context.setSignatureAlgorithm(Set.of(SignatureAlgorithm.fromAlgorithm(probe.algorithm())));
                assertThat(DevKeyGuard.refusal(context, List.of(probe))).as("%s %s", key, probe.algorithm()).isPresent();
            }
        }
    }

    @Test
    void shouldRefuseTheRepositoryKeysHoweverSmallryeJwtIsGivenThem() throws Exception {
        for (String key : List.of("DEV-ONLY", "TEST-ONLY")) {
            String pem = pem(key);
            String standardN = Base64.getEncoder().withoutPadding().encodeToString(unsigned(modulus(pem)));
            String jwk = "{\"kty\":\"RSA\",\"kid\":\"k-dev\",\"e\":\"AQAB\",\"n\":\"" + standardN + "\"}";
            String[] lines = pem.split("\n");
            lines[2] = lines[2].substring(0, 20) + "\\n" + lines[2].substring(20);

            assertThat(refused(inline(pem))).as("PEM %s", key).isTrue();
            assertThat(refused(inline(pem.replace("\n", "\\n")))).as("one-line PEM with literal \\n, %s", key).isTrue();
            assertThat(refused(inline(String.join("\n", lines)))).as("literal \\n inside a base64 line, %s", key).isTrue();
            assertThat(refused(inline(pem.replace("-----END PUBLIC KEY-----", "-----END RSA PUBLIC KEY-----"))))
                    .as("mismatched labels, %s", key).isTrue();
            assertThat(refused(inline(jwk))).as("JWK with a standard-base64 n, %s", key).isTrue();
            assertThat(refused(inline("{\"keys\":[" + ownJwk("own") + "," + jwk + "]}"))).as("second key of a set, %s", key)
                    .isTrue();
            assertThat(refused(at(pem))).as("a copy at another path, %s", key).isTrue();
        }
        assertThat(refused(at(Files.readString(FORMS.resolve("dev-certificate.pem"))))).as("certificate").isTrue();
    }

    /** A keystore is read by Quarkus into the context's verification key; the probe meets that key too. */
    @Test
    void shouldRefuseTheDevKeyFromAKeystore() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(FORMS.resolve("dev-certificate.p12").toFile())) {
            store.load(in, "changeit".toCharArray());
        }
        JWTAuthContextInfo context = context();
        context.setPublicVerificationKey(store.getCertificate(store.aliases().nextElement()).getPublicKey());
        assertThat(refused(context)).isTrue();
    }

    @Test
    void shouldAcceptAKeyOfYourOwnInTheSameForms() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        RSAPublicKey key = (RSAPublicKey) generator.generateKeyPair().getPublic();
        String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";

        assertThat(refused(inline(pem))).isFalse();
        assertThat(refused(inline(pem.replace("\n", "\\n")))).isFalse();
        assertThat(refused(at(pem))).isFalse();
        assertThat(refused(inline("{\"keys\":[" + ownJwk("a") + "," + ownJwk("b") + "]}"))).isFalse();
    }

    /** smallrye-jwt reads the location only at the first request: a wrong path would fail every request of a ready pod. */
    @Test
    void shouldRefuseALocalKeyThatCannotBeLoadedButNotAKeySetUrl() {
        JWTAuthContextInfo missing = context();
        missing.setPublicKeyLocation("/etc/keys/missing.pem");
        assertThat(DevKeyGuard.refusal(missing, PROBES))
                .hasValueSatisfying(reason -> assertThat(reason).contains("/etc/keys/missing.pem").contains("cannot be loaded"));
        JWTAuthContextInfo remote = context();
        remote.setPublicKeyLocation("https://198.18.0.1:1/jwks");
        assertThat(DevKeyGuard.refusal(remote, PROBES)).as("a key set URL is read when it answers").isEmpty();
    }

    private static boolean refused(JWTAuthContextInfo context) {
        Optional<String> reason = DevKeyGuard.refusal(context, PROBES);
        reason.ifPresent(text -> assertThat(text).contains("-ONLY key").doesNotContain("cannot be loaded"));
        return reason.isPresent();
    }

    /** As Quarkus builds it from the prod settings: RS256, an issuer and an audience. */
    private static JWTAuthContextInfo context() {
        JWTAuthContextInfo context = new JWTAuthContextInfo();
        context.setSignatureAlgorithm(Set.of(SignatureAlgorithm.RS256));
        context.setIssuedBy("https://issuer.example.com/");
        context.setExpectedAudience(Set.of("stockhold"));
        return context;
    }

    private static JWTAuthContextInfo inline(String content) {
        JWTAuthContextInfo context = context();
        context.setPublicKeyContent(content);
        return context;
    }

    private static JWTAuthContextInfo at(String content) throws Exception {
        Path file = Files.createTempFile("issuer-key", ".txt");
        Files.writeString(file, content);
        JWTAuthContextInfo context = context();
        context.setPublicKeyLocation(file.toString());
        return context;
    }

    private static String pem(String key) {
        Path path = key.startsWith("DEV") ? Path.of("src/main/resources/dev-jwt/DEV-ONLY-public.pem")
                : Path.of("src/test/resources/test-jwt/TEST-ONLY-public.pem");
        try {
            return Files.readString(path).strip();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static BigInteger modulus(String pem) throws Exception {
        byte[] der = Base64.getDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", ""));
        return ((RSAPublicKey) java.security.KeyFactory.getInstance("RSA")
                .generatePublic(new java.security.spec.X509EncodedKeySpec(der))).getModulus();
    }

    private static String ownJwk(String kid) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        RSAPublicKey key = (RSAPublicKey) generator.generateKeyPair().getPublic();
        return "{\"kty\":\"RSA\",\"kid\":\"" + kid + "\",\"e\":\"AQAB\",\"n\":\""
                + Base64.getEncoder().withoutPadding().encodeToString(unsigned(key.getModulus())) + "\"}";
    }

    private static byte[] unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
    }
}
