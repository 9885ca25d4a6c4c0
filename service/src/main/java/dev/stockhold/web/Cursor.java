package dev.stockhold.web;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import dev.stockhold.Digests;

/**
 * The opaque keyset cursors of the list endpoints: a position (where the previous page ended) and a checksum that binds
 * it to the tenant and the filters, so a cursor that was altered, or belongs to other filters or another tenant, is a
 * 400 naming {@code cursor}. Not a secret: a client only ever pages its own tenant.
 */
public final class Cursor {

    private static final String SEPARATOR = "\u001f";

    private Cursor() {
    }

    /** @param binding what the cursor is valid for (tenant, filters); @param position fields without the separator */
    public static String encode(List<String> binding, List<String> position) {
        String joined = String.join(SEPARATOR, position);
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((joined + SEPARATOR + check(binding, joined)).getBytes(StandardCharsets.UTF_8));
    }

    /** The position fields of a cursor made by {@link #encode} with the same binding; else 400 validation-failed. */
    public static List<String> decode(List<String> binding, String cursor, int fields) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int cut = text.lastIndexOf(SEPARATOR);
            if (cut > 0) {
                String joined = text.substring(0, cut);
                List<String> position = List.of(joined.split(SEPARATOR, -1));
                if (position.size() == fields && check(binding, joined).equals(text.substring(cut + 1))) {
                    return position;
                }
            }
        } catch (IllegalArgumentException e) {
            // not base64: the same answer as a wrong checksum
        }
        throw invalid();
    }

    /** The answer to a cursor whose checksum matched but whose fields do not parse (never made by this service). */
    public static ValidationFailedException invalid() {
        return new ValidationFailedException("cursor", "is not a cursor of this listing; start again without it");
    }

    private static String check(List<String> binding, String position) {
        String bound = String.join("\n", binding) + "\n" + position;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(Digests.sha256(bound), 12));
    }
}
