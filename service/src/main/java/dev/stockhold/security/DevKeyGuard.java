package dev.stockhold.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;

/**
 * The prod build refuses to start with the repository's dev or test keys: they are public. It recognises them by their
 * RSA modulus, whether configured inline ({@code mp.jwt.verify.publickey}: PEM, base64 DER or a JWK) or in a file or
 * classpath resource at {@code mp.jwt.verify.publickey.location}, wherever that file was copied to. An http(s) location
 * is the identity provider's key set and is not read here.
 */
@IfBuildProfile("prod")
public class DevKeyGuard {

    /**
     * The first 40 base64 characters of each repository key's modulus (dev-jwt/DEV-ONLY-public.pem,
     * test-jwt/TEST-ONLY-public.pem). They read the same in base64 and base64url, and they appear as they are in the
     * key's DER encoding, whose modulus starts on a 3-byte boundary.
     */
    static final List<String> REPOSITORY_KEYS = List.of("0SCiMIU34Xwcf9qpbZi6zTAE2d0ae0jN85KwYDFy",
            "nY8nbLLpDEpnPcpUxrSELPdrwKU5ghOftjyZjqTY");

    void check(@Observes StartupEvent event,
            @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> location,
            @ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> key) {
        refusal(location, key, DevKeyGuard::read).ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
    }

    /** Why this configuration must not start in prod, if it must not. */
    static Optional<String> refusal(Optional<String> location, Optional<String> inline, Function<String, Optional<String>> read) {
        if (inline.filter(DevKeyGuard::isRepositoryKey).isPresent()) {
            return Optional.of("mp.jwt.verify.publickey is a repository key; the prod profile trusts only a key you provide");
        }
        if (location.isPresent()) {
            String at = location.get();
            if (at.contains("dev-jwt/") || at.contains("test-jwt/") || read.apply(at).filter(DevKeyGuard::isRepositoryKey).isPresent()) {
                return Optional.of("mp.jwt.verify.publickey.location (" + at + ") holds a repository key; the prod profile "
                        + "trusts only a key you provide (MP_JWT_VERIFY_PUBLICKEY_LOCATION)");
            }
        }
        return Optional.empty();
    }

    static boolean isRepositoryKey(String material) {
        String compact = material.replaceAll("\\s", "");
        return REPOSITORY_KEYS.stream().anyMatch(compact::contains);
    }

    /** A file path (or file: URI) or a classpath resource; nothing for http(s). */
    private static Optional<String> read(String location) {
        if (location.startsWith("http:") || location.startsWith("https:")) {
            return Optional.empty();
        }
        String path = location.startsWith("file:") ? location.substring("file:".length()) : location;
        try {
            Path file = Path.of(path);
            if (Files.isRegularFile(file)) {
                return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
            }
            String resource = path.startsWith("classpath:") ? path.substring("classpath:".length()) : path;
            try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
                return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
