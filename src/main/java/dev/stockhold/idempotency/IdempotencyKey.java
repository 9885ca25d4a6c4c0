package dev.stockhold.idempotency;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** A validated Idempotency-Key: 1-255 visible ASCII characters (0x21-0x7E). */
public record IdempotencyKey(String value) {

    public static final String HEADER = "Idempotency-Key";
    public static final int MAX_LENGTH = 255;

    public IdempotencyKey {
        if (value == null || value.isEmpty()) {
            throw new ProblemException(ProblemType.IDEMPOTENCY_KEY_MISSING,
                    "POST /v1/reservations needs an Idempotency-Key header");
        }
        if (value.length() > MAX_LENGTH || !value.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            throw new ProblemException(ProblemType.IDEMPOTENCY_KEY_INVALID,
                    "Idempotency-Key must be 1-255 visible ASCII characters (0x21-0x7E)");
        }
    }
}
