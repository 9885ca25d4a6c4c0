package dev.stockhold.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.stockhold.web.ValidationFailedException;

/**
 * An If-Match header (RFC 9110 §13.1.1): {@code *} or a list of entity tags, compared strongly: a stock record's tag is
 * {@code "<version>"}, and a weak tag never matches. Absent means an unconditional write.
 */
public record IfMatch(boolean any, List<String> tags) {

    private static final Pattern TAG = Pattern.compile("(W/)?\"([\\x21\\x23-\\x7E]*)\"");

    /** @return null when the header is absent; 400 validation-failed naming If-Match when it is not a tag list */
    public static IfMatch parse(String header) {
        if (header == null) {
            return null;
        }
        String value = header.strip();
        if (value.equals("*")) {
            return new IfMatch(true, List.of());
        }
        List<String> strong = new ArrayList<>();
        for (String part : value.split(",")) {
            Matcher m = TAG.matcher(part.strip());
            if (!m.matches()) {
                throw new ValidationFailedException("If-Match", "must be * or entity tags such as \"4\" (from ETag)");
            }
            if (m.group(1) == null) {
                strong.add(m.group(0));
            }
        }
        return new IfMatch(false, strong);
    }

    /** Whether a write may go ahead on this record (null: it does not exist). */
    public boolean matches(StockRecord current) {
        return current != null && matches(current.etag());
    }

    /** Whether a write may go ahead on something whose current entity tag is this one. */
    public boolean matches(String etag) {
        return any || tags.contains(etag);
    }

    /** The versions the strong tags name ({@code "4"}: 4); a tag that is not a version names none. */
    public Long[] versions() {
        return tags.stream().map(t -> t.substring(1, t.length() - 1)).filter(v -> v.matches("[1-9][0-9]{0,17}")).map(Long::valueOf)
                .toArray(Long[]::new);
    }

    /** The header in a canonical form, for a request's fingerprint. */
    public String canonical() {
        return any ? "*" : String.join(",", tags);
    }
}
