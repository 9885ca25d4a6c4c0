package dev.stockhold.idempotency;

import java.util.List;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/**
 * A validated Idempotency-Key, by its value. The header may be the IETF draft's Structured Field String
 * ({@code "8e03978e-40d5"}: printable ASCII between double quotes, {@code \"} and {@code \\} escaped) or, for
 * Stripe-style clients, a bare token of visible ASCII; {@code "abc"} and {@code abc} are the same key (I3). The value
 * is 1-255 characters after unquoting.
 */
public record IdempotencyKey(String value) {

    public static final String HEADER = dev.stockhold.web.Headers.IDEMPOTENCY_KEY;
    public static final int MAX_LENGTH = 255;
    /** Either form, as the OpenAPI document states it; {@link #parse} is what enforces it. */
    public static final String PATTERN = "^(?:[\\x21\\x23-\\x7E][\\x21-\\x7E]{0,254}|\"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\\\\"]){1,255}\")$";

    public IdempotencyKey {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            throw invalid("Idempotency-Key must be 1-255 characters");
        }
    }

    /** Whether a text can be a key's value as stored: what either header form leaves once read (printable ASCII). */
    public static boolean isValue(String value) {
        return value != null && !value.isEmpty() && value.length() <= MAX_LENGTH && value.chars().allMatch(c -> c >= 0x20 && c <= 0x7E);
    }

    /** The key from every {@code Idempotency-Key} field of the request: exactly one field, in either form. */
    public static IdempotencyKey parse(List<String> fields) {
        if (fields == null || fields.isEmpty()) {
            throw missing();
        }
        if (fields.size() > 1) {
            throw invalid("Send one Idempotency-Key header, not " + fields.size());
        }
        return parse(fields.get(0));
    }

    private static ProblemException missing() {
        return new ProblemException(ProblemType.IDEMPOTENCY_KEY_MISSING, "This request needs an Idempotency-Key header");
    }

    /** One header field's value (without surrounding whitespace, as HTTP hands it over). */
    public static IdempotencyKey parse(String field) {
        if (field == null || field.isEmpty()) {
            throw missing();
        }
        return new IdempotencyKey(field.charAt(0) == '"' ? unquote(field) : bare(field));
    }

    private static String bare(String field) {
        if (!field.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            throw invalid("Idempotency-Key must be a quoted string (RFC 8941) or 1-255 visible ASCII characters");
        }
        return field;
    }

    /** RFC 8941 section 4.2.5, parsing a String; nothing may follow the closing quote. */
    private static String unquote(String field) {
        StringBuilder value = new StringBuilder(field.length());
        for (int i = 1; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\') {
                if (i + 1 >= field.length() || field.charAt(i + 1) != '"' && field.charAt(i + 1) != '\\') {
                    throw invalid("Idempotency-Key has a bad escape: only \\\" and \\\\ are allowed in a quoted key");
                }
                value.append(field.charAt(++i));
            } else if (c == '"') {
                if (i != field.length() - 1) {
                    throw invalid("Idempotency-Key has characters after its closing quote");
                }
                return value.toString();
            } else if (c < 0x20 || c > 0x7E) {
                throw invalid("Idempotency-Key may hold printable ASCII only");
            } else {
                value.append(c);
            }
        }
        throw invalid("Idempotency-Key has no closing quote");
    }

    private static ProblemException invalid(String detail) {
        return new ProblemException(ProblemType.IDEMPOTENCY_KEY_INVALID, detail);
    }
}
