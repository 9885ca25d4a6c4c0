package dev.stockhold.inventory;

import java.util.regex.Pattern;

import dev.stockhold.web.ValidationFailedException;

/** The sku format (docs/api.md): 1-64 characters of {@code [A-Za-z0-9._:-]}. */
public final class Sku {

    public static final String REGEX = "^[A-Za-z0-9._:-]{1,64}$";
    private static final Pattern PATTERN = Pattern.compile(REGEX);

    private Sku() {
    }

    public static String require(String field, String sku) {
        if (sku == null || !PATTERN.matcher(sku).matches()) {
            throw new ValidationFailedException(field, "must be 1-64 characters of [A-Za-z0-9._:-]");
        }
        return sku;
    }
}
