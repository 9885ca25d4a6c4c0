package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.JwksServer;

/**
 * The prod guard's decision, for each way a repository key can be configured (the guard itself runs only in prod):
 * key material is compared, whatever wraps it (src/test/resources/dev-key-forms holds the dev key's certificate and
 * keystores).
 */
class DevKeyGuardTest {

    private static final Path FORMS = Path.of("src/test/resources/dev-key-forms");

    @Test
    void shouldRefuseTheRepositoryKeysInlineInAnyFormOrCopiedElsewhere() throws Exception {
        for (Path pem : new Path[]{ Path.of("src/main/resources/dev-jwt/DEV-ONLY-public.pem"),
                Path.of("src/test/resources/test-jwt/TEST-ONLY-public.pem") }) {
            String text = Files.readString(pem);
            String base64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            RSAPublicKey key = (RSAPublicKey) java.security.KeyFactory.getInstance("RSA")
                    .generatePublic(new java.security.spec.X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            String jwk = "{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\"" + JwksServer.base64url(key.getModulus()) + "\"}";

            assertThat(refusedInline(text)).as("inline PEM %s", pem).isTrue();
            assertThat(refusedInline(base64)).as("inline base64 %s", pem).isTrue();
            assertThat(refusedInline(jwk)).as("inline JWK %s", pem).isTrue();
            assertThat(refusedInline("{\"keys\":[" + jwk + "]}")).as("inline JWKS %s", pem).isTrue();
            assertThat(refusedAt(text.getBytes(StandardCharsets.UTF_8))).as("copied %s", pem).isTrue();
        }
        assertThat(DevKeyGuard.refusal(Optional.of("dev-jwt/DEV-ONLY-public.pem"), Optional.empty(), Optional.empty(), none()))
                .isPresent();
    }

    /** A self-signed certificate of the dev key (CN=dev1) once passed a check that looked for a run of base64 text. */
    @Test
    void shouldRefuseTheDevKeyInsideACertificateOrAKeystore() throws Exception {
        byte[] certificatePem = Files.readAllBytes(FORMS.resolve("dev-certificate.pem"));
        byte[] certificateDer = Files.readAllBytes(FORMS.resolve("dev-certificate.der"));
        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new java.io.ByteArrayInputStream(certificateDer));
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=dev1");
        String x5c = "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"k1\",\"x5c\":[\"" + Base64.getEncoder().encodeToString(certificateDer)
                + "\"]}]}";

        assertThat(refusedAt(certificatePem)).as("certificate PEM").isTrue();
        assertThat(refusedAt(certificateDer)).as("certificate DER").isTrue();
        assertThat(refusedInline(new String(certificatePem, StandardCharsets.US_ASCII))).as("inline certificate").isTrue();
        assertThat(refusedInline(Base64.getEncoder().encodeToString(certificateDer))).as("certificate as base64 DER").isTrue();
        assertThat(refusedInline(x5c)).as("JWKS with only x5c").isTrue();
        assertThat(refusedAt(Files.readAllBytes(FORMS.resolve("dev-pkcs1.pem")))).as("PKCS#1 PEM").isTrue();
        for (String store : new String[]{ "dev-certificate.p12", "dev-certificate.jks" }) {
            Map<String, byte[]> files = Map.of("/etc/keys/store", Files.readAllBytes(FORMS.resolve(store)));
            assertThat(DevKeyGuard.refusal(Optional.of("/etc/keys/store"), Optional.empty(), Optional.of("changeit"),
                    at -> Optional.ofNullable(files.get(at)))).as("keystore %s", store).isPresent();
        }
    }

    @Test
    void shouldAcceptAKeyOfYourOwnInAnyForm() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        RSAPublicKey key = (RSAPublicKey) generator.generateKeyPair().getPublic();
        String own = Base64.getMimeEncoder().encodeToString(key.getEncoded());
        String pem = "-----BEGIN PUBLIC KEY-----\n" + own + "\n-----END PUBLIC KEY-----\n";
        String jwks = "{\"keys\":[{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\"" + JwksServer.base64url(key.getModulus()) + "\"}]}";

        assertThat(refusedAt(own.getBytes(StandardCharsets.US_ASCII))).isFalse();
        assertThat(refusedInline(own)).isFalse();
        assertThat(refusedInline(pem)).isFalse();
        assertThat(refusedInline(jwks)).isFalse();
        assertThat(DevKeyGuard.refusal(Optional.of("https://issuer.example.com/.well-known/jwks.json"), Optional.empty(),
                Optional.empty(), none())).isEmpty();
    }

    /** smallrye-jwt reads the location only at the first request: a wrong path would fail every request of a ready pod. */
    @Test
    void shouldRefuseAKeyLocationThatCannotBeRead() {
        assertThat(DevKeyGuard.refusal(Optional.of("/etc/keys/missing.pem"), Optional.empty(), Optional.empty(), none()))
                .hasValueSatisfying(reason -> assertThat(reason).contains("/etc/keys/missing.pem").contains("neither a readable file"));
        assertThat(DevKeyGuard.refusal(Optional.of("https://issuer.example.com/jwks"), Optional.empty(), Optional.empty(), none()))
                .as("a key set URL is read when it answers, not at the start").isEmpty();
    }

    private static boolean refusedInline(String material) {
        return DevKeyGuard.refusal(Optional.empty(), Optional.of(material), Optional.empty(), none()).isPresent();
    }

    private static boolean refusedAt(byte[] material) {
        return DevKeyGuard.refusal(Optional.of("/etc/keys/issuer"), Optional.empty(), Optional.empty(), at -> Optional.of(material))
                .isPresent();
    }

    private static Function<String, Optional<byte[]>> none() {
        return at -> Optional.empty();
    }
}
