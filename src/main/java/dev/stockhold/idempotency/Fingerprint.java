package dev.stockhold.idempotency;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

import dev.stockhold.Digests;

/** SHA-256 of a request's canonical form: equal for the same intent, different for any value change. */
public record Fingerprint(byte[] sha256) {

    public static Fingerprint of(String canonicalForm) {
        return new Fingerprint(Digests.sha256(canonicalForm));
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
