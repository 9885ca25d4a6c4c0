package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.JwksServer;

/** The prod guard's decision, for each way a repository key can be configured (the guard itself runs only in prod). */
class DevKeyGuardTest {

    @Test
    void shouldRefuseTheRepositoryKeysInlineInAnyFormOrCopiedElsewhere() throws Exception {
        for (Path pem : new Path[]{ Path.of("src/main/resources/dev-jwt/DEV-ONLY-public.pem"),
                Path.of("src/test/resources/test-jwt/TEST-ONLY-public.pem") }) {
            String text = Files.readString(pem);
            String base64 = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            RSAPublicKey key = (RSAPublicKey) java.security.KeyFactory.getInstance("RSA")
                    .generatePublic(new java.security.spec.X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
            String jwk = "{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\"" + JwksServer.base64url(key.getModulus()) + "\"}";

            assertThat(DevKeyGuard.refusal(Optional.empty(), Optional.of(text), none())).as("inline PEM %s", pem).isPresent();
            assertThat(DevKeyGuard.refusal(Optional.empty(), Optional.of(base64), none())).as("inline base64 %s", pem).isPresent();
            assertThat(DevKeyGuard.refusal(Optional.empty(), Optional.of(jwk), none())).as("inline JWK %s", pem).isPresent();
            // the same file copied to a path that names nothing
            Map<String, String> files = Map.of("/etc/keys/issuer.pem", text);
            assertThat(DevKeyGuard.refusal(Optional.of("/etc/keys/issuer.pem"), Optional.empty(),
                    at -> Optional.ofNullable(files.get(at)))).as("copied %s", pem).isPresent();
        }
        assertThat(DevKeyGuard.refusal(Optional.of("dev-jwt/DEV-ONLY-public.pem"), Optional.empty(), none())).isPresent();
    }

    @Test
    void shouldAcceptAKeyOfYourOwn() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String own = Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPublic().getEncoded());
        assertThat(DevKeyGuard.refusal(Optional.of("/etc/keys/issuer.pem"), Optional.empty(), at -> Optional.of(own))).isEmpty();
        assertThat(DevKeyGuard.refusal(Optional.empty(), Optional.of(own), none())).isEmpty();
        assertThat(DevKeyGuard.refusal(Optional.of("https://issuer.example.com/.well-known/jwks.json"), Optional.empty(), none()))
                .isEmpty();
    }

    private static java.util.function.Function<String, Optional<String>> none() {
        return at -> Optional.empty();
    }
}
