package dev.stockhold.inventory;

import java.util.regex.Pattern;

import dev.stockhold.web.ValidationFailedException;

/**
 * The sku and location format (docs/api.md): 1-64 characters of {@code [A-Za-z0-9._:-]}, other than {@code .} and
 * {@code ..}, which a path cannot address (they are dot segments, RequestFraming refuses them).
 */
public final class Sku {

    public static final String REGEX = "^(?!\\.\\.?$)[A-Za-z0-9._:-]{1,64}$";
    /** The format in words, for descriptions. */
    public static final String FORMAT = "1-64 characters of [A-Za-z0-9._:-], not . or ..";
    /** The violation's message. */
    public static final String RULE = "must be " + FORMAT;
    private static final Pattern PATTERN = Pattern.compile(REGEX);

    private Sku() {
    }

    public static String require(String field, String sku) {
        if (sku == null || !PATTERN.matcher(sku).matches()) {
            throw new ValidationFailedException(field, RULE);
        }
        return sku;
    }
}
