package dev.stockhold.web;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Query parameters and filter fields read the same way everywhere: a value the service cannot read is a 400 naming it. */
public final class Params {

    private Params() {
    }

    /** An RFC 3339 date-time, or null when absent. */
    public static Instant instant(String field, String value) {
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new ValidationFailedException(field, "must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z");
        }
    }

    /** An integer from {@code min} to {@code max}, or {@code absent} when the parameter is not given. */
    public static int integer(String field, String value, int min, int max, int absent) {
        if (value == null) {
            return absent;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ValidationFailedException(field, "must be an integer from " + min + " to " + max);
    }
}
