package dev.stockhold.client;

import java.util.UUID;

/** Idempotency keys: made as random UUIDs, sent as RFC 8941 strings, so any printable ASCII key survives the header. */
final class Keys {

    private Keys() {
    }

    static String random() {
        return UUID.randomUUID().toString();
    }

    /** A caller's key as the service accepts it: 1-255 printable ASCII characters. */
    static String check(String key) {
        if (key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("an Idempotency-Key is 1-255 printable ASCII characters");
        }
        return key;
    }

    /** The header value: the key as an RFC 8941 sf-string. */
    static String header(String key) {
        return '"' + key.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
