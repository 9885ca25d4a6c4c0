package dev.stockhold.web;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Query parameters and filter fields read the same way everywhere: a value the service cannot read is a 400 naming it. */
public final class Params {

    private static final java.util.regex.Pattern CANONICAL_UUID = java.util.regex.Pattern
            .compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /** The instants Stockhold stores and compares: RFC 3339's four-digit years, well inside PostgreSQL's range. */
    static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private Params() {
    }

    /** An RFC 3339 date-time from year 0001 to 9999, or null when absent. */
    /** An id in the canonical UUID form (lowercase, hyphenated); null for anything else, which names nothing. */
    public static java.util.UUID uuid(String value) {
        return value != null && CANONICAL_UUID.matcher(value).matches() ? java.util.UUID.fromString(value) : null;
    }

    public static Instant instant(String field, String value) {
        if (value == null) {
            return null;
        }
        Instant parsed;
        try {
            parsed = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new ValidationFailedException(field, "must be an RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z");
        }
        if (!storable(parsed)) {
            throw new ValidationFailedException(field, "must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z");
        }
        return parsed;
    }

    /** Whether the instant is within the range Stockhold reads and writes (years 0001 to 9999). */
    public static boolean storable(Instant instant) {
        return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
    }

    /** Refuses text the database cannot store or that would hash ambiguously: NUL and unpaired surrogates. */
    public static void text(String field, String value) {
        if (value != null && !Text.isClean(value)) {
            throw new ValidationFailedException(field, Text.UNCLEAN);
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
