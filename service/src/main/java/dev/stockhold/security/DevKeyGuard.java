package dev.stockhold.security;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;

/**
 * The prod build refuses to start with the repository's dev or test keys: they are public. It compares key material,
 * not text: whatever is configured ({@code mp.jwt.verify.publickey} inline, or the file or classpath resource at
 * {@code mp.jwt.verify.publickey.location}) is read as PEM keys and certificates, a JWK or JWK set (with its
 * {@code x5c} certificates), base64 DER, or a PKCS#12/JKS keystore, into RSA public keys whose moduli are compared
 * with the repository keys'. Any blob it decodes is also searched for a repository modulus byte for byte, so a format
 * it does not know (a PKCS#1 key, a certificate chain in another wrapper) cannot carry one in. An http(s) location is
 * the identity provider's key set and is not read here. A file or resource location that cannot be read refuses the
 * start too: smallrye-jwt reads it only at the first request, and every request would then fail while the pod is ready.
 */
@IfBuildProfile("prod")
public class DevKeyGuard {

    /**
     * The moduli (base64url, as a JWK's {@code n}) of dev-jwt/DEV-ONLY-public.pem and test-jwt/TEST-ONLY-public.pem.
     * Public values: the private keys never ship in the prod artifact.
     */
    static final List<BigInteger> REPOSITORY_MODULI = List.of(
            modulus("0SCiMIU34Xwcf9qpbZi6zTAE2d0ae0jN85KwYDFyOGnBXMFcDovXfCwDkLQbU2Q0SHtBEdVbl4ylNgrXh3yKsVpBn2jie5DowhsUjMbzljQE"
                    + "lcn6XdqpStdOdQRzXoawQ5IUkAmGpkJuCqGctbkBRODkRgzj_pCz5WizVofsZ_y-EGKMD4UDHyQEygg3Yo6rdVxINdhHC6_iBsRDPZ2e9ptMc"
                    + "8qa8MHkZ1TN3-I-V281O1cRxVKtnDtKEuj-i3Uswr8lwqjNJRLzeBK6BxjhcYDsxQgb3-DtaefAzwromhs3kVw0JuuT-oMzU46PvvsE8MUPDnu"
                    + "xQTmTcLjV2X6ysw"),
            modulus("nY8nbLLpDEpnPcpUxrSELPdrwKU5ghOftjyZjqTYxC73Hoy2Zs2Ymw6i8kEukKcX-2fw0PCqGTZjHTTGd3KT0tT3J5jYhiPKIZfgB9m--V4k"
                    + "kilOb4ahmu7EPDAfYdpqNPbRW5Ys0Tmx0R_3eKWCPxk2uUh5YekH5lhU1z3HsakBiLWWm0Nv8X_Ydc2hHDm35jybXhJgzA3YUuNdfdUvAlqa7nu"
                    + "vW1M065ptpwFPMsfKO6XoIe9d2RMkw7Jy4z3pjsNKNVV2_dQnnJ8G_las0k2cStRNrU9yZNoCDVyIRDmZgEEFchq_g0DefeH6ioINh5da0AP6Ol"
                    + "ecaEbscCiJdw"));

    private static final Pattern PEM = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/_=\\-\\s]+");

    void check(@Observes StartupEvent event,
            @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> location,
            @ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> key,
            @ConfigProperty(name = "smallrye.jwt.keystore.password") Optional<String> keystorePassword) {
        refusal(location, key, keystorePassword, DevKeyGuard::read).ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
    }

    /** Why this configuration must not start in prod, if it must not. */
    static Optional<String> refusal(Optional<String> location, Optional<String> inline, Optional<String> keystorePassword,
            Function<String, Optional<byte[]>> read) {
        if (inline.filter(text -> holdsRepositoryKey(text.getBytes(StandardCharsets.UTF_8), keystorePassword)).isPresent()) {
            return Optional.of("mp.jwt.verify.publickey is a repository key; the prod profile trusts only a key you provide");
        }
        if (location.isPresent()) {
            String at = location.get();
            Optional<byte[]> material = read.apply(at);
            if (at.contains("dev-jwt/") || at.contains("test-jwt/")
                    || material.filter(bytes -> holdsRepositoryKey(bytes, keystorePassword)).isPresent()) {
                return Optional.of("mp.jwt.verify.publickey.location (" + at + ") holds a repository key; the prod profile "
                        + "trusts only a key you provide (MP_JWT_VERIFY_PUBLICKEY_LOCATION)");
            }
            if (material.isEmpty() && !isUrl(at) && inline.isEmpty()) {
                // smallrye-jwt would read it at the first request and fail every request, with the pod ready
                return Optional.of("mp.jwt.verify.publickey.location (" + at + ") is neither a readable file nor a classpath "
                        + "resource: no token could be verified (MP_JWT_VERIFY_PUBLICKEY_LOCATION)");
            }
        }
        return Optional.empty();
    }

    /** Whether any key in this material (any format above) is a repository key. */
    static boolean holdsRepositoryKey(byte[] material, Optional<String> keystorePassword) {
        List<byte[]> blobs = new ArrayList<>();
        Set<BigInteger> moduli = new HashSet<>();
        blobs.add(material);
        String text = new String(material, StandardCharsets.UTF_8).trim();
        Matcher pem = PEM.matcher(text);
        boolean anyPem = false;
        while (pem.find()) {
            anyPem = true;
            decodeBase64(pem.group(2)).ifPresent(blobs::add);
        }
        if (!anyPem && text.startsWith("{")) {
            jwkModuli(text, blobs, moduli);
        } else if (!anyPem && BASE64.matcher(text).matches()) {
            decodeBase64(text).ifPresent(blobs::add);
        }
        keystoreModuli(material, keystorePassword, moduli);
        for (byte[] blob : blobs) {
            derModuli(blob, moduli);
        }
        if (!Collections.disjoint(moduli, REPOSITORY_MODULI)) {
            return true;
        }
        return blobs.stream().anyMatch(DevKeyGuard::containsRepositoryModulus);
    }

    private static void jwkModuli(String json, List<byte[]> blobs, Set<BigInteger> moduli) {
        try {
            JsonNode root = new ObjectMapper().readTree(json);
            List<JsonNode> keys = new ArrayList<>();
            if (root.has("keys") && root.get("keys").isArray()) {
                root.get("keys").forEach(keys::add);
            } else {
                keys.add(root);
            }
            for (JsonNode jwk : keys) {
                if (jwk.hasNonNull("n")) {
                    moduli.add(modulus(jwk.get("n").asText()));
                }
                if (jwk.has("x5c")) {
                    jwk.get("x5c").forEach(cert -> decodeBase64(cert.asText()).ifPresent(blobs::add));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not a JWK: the byte search still runs over the material
        }
    }

    private static void keystoreModuli(byte[] material, Optional<String> password, Set<BigInteger> moduli) {
        for (String type : List.of("PKCS12", "JKS")) {
            try {
                KeyStore store = KeyStore.getInstance(type);
                store.load(new ByteArrayInputStream(material), password.map(String::toCharArray).orElse(null));
                for (String alias : Collections.list(store.aliases())) {
                    Certificate[] chain = store.getCertificateChain(alias);
                    List<Certificate> certificates = new ArrayList<>(chain == null ? List.of() : List.of(chain));
                    if (store.getCertificate(alias) != null) {
                        certificates.add(store.getCertificate(alias));
                    }
                    certificates.forEach(certificate -> addRsa(certificate.getPublicKey(), moduli));
                }
            } catch (Exception e) {
                // not a keystore of this type, or locked by another password: other readings still apply
            }
        }
    }

    private static void derModuli(byte[] der, Set<BigInteger> moduli) {
        try {
            CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(der))
                    .forEach(certificate -> addRsa(certificate.getPublicKey(), moduli));
        } catch (Exception e) {
            // not certificates
        }
        try {
            addRsa(KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der)), moduli);
        } catch (Exception e) {
            // not a SubjectPublicKeyInfo
        }
    }

    private static void addRsa(PublicKey key, Set<BigInteger> moduli) {
        if (key instanceof RSAPublicKey rsa) {
            moduli.add(rsa.getModulus());
        }
    }

    private static boolean containsRepositoryModulus(byte[] blob) {
        for (BigInteger modulus : REPOSITORY_MODULI) {
            byte[] needle = unsigned(modulus);
            outer : for (int i = 0; i + needle.length <= blob.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (blob[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
        }
        return false;
    }

    private static byte[] unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        return bytes[0] == 0 ? java.util.Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
    }

    private static Optional<byte[]> decodeBase64(String text) {
        String compact = text.replaceAll("\\s", "").replace('-', '+').replace('_', '/').replace("=", "");
        try {
            return Optional.of(Base64.getDecoder().decode(compact + "==".substring(0, (4 - compact.length() % 4) % 4)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static BigInteger modulus(String base64url) {
        return new BigInteger(1, Base64.getUrlDecoder().decode(base64url));
    }

    /** The identity provider's key set, fetched by smallrye-jwt when it answers. */
    private static boolean isUrl(String location) {
        return location.startsWith("http:") || location.startsWith("https:");
    }

    /** A file path (or file: URI) or a classpath resource; nothing for http(s). */
    private static Optional<byte[]> read(String location) {
        if (isUrl(location)) {
            return Optional.empty();
        }
        String path = location.startsWith("file:") ? location.substring("file:".length()) : location;
        try {
            Path file = Path.of(path);
            if (Files.isRegularFile(file)) {
                return Optional.of(Files.readAllBytes(file));
            }
            String resource = path.startsWith("classpath:") ? path.substring("classpath:".length()) : path;
            try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
                return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
