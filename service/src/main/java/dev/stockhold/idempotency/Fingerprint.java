package dev.stockhold.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** SHA-256 of a request's canonical form: equal for the same intent, different for any value change. */
public record Fingerprint(byte[] sha256) {

    public static Fingerprint of(String canonicalForm) {
        try {
            return new Fingerprint(MessageDigest.getInstance("SHA-256").digest(canonicalForm.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }

    public boolean matches(byte[] other) {
        return MessageDigest.isEqual(sha256, other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fingerprint f && Arrays.equals(sha256, f.sha256);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sha256);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(sha256);
    }
}
