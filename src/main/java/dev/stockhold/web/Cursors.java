package dev.stockhold.web;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.stockhold.StockholdConfig;

/**
 * The opaque keyset cursors of the list endpoints: a position (where the previous page ended) and an HMAC-SHA256 tag,
 * keyed by {@code stockhold.security.cursor-secret}, over the position, the tenant and the filters. A cursor that was
 * altered, forged, or belongs to other filters or another tenant is a 400 naming {@code cursor}; the position fields
 * of a cursor that passes are still range-checked by the listing that reads them.
 */
@Singleton
public class Cursors {

    private static final String SEPARATOR = "\u001f";
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    @Inject
    Cursors(StockholdConfig config) {
        this(config.security().cursorSecret());
    }

    /** A signer with this secret (replicas that share it accept each other's cursors). */
    public Cursors(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** @param binding what the cursor is valid for (tenant, filters); @param position fields without the separator */
    public String encode(List<String> binding, List<String> position) {
        String joined = String.join(SEPARATOR, position);
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((joined + SEPARATOR + tag(binding, joined)).getBytes(StandardCharsets.UTF_8));
    }

    /** The position fields of a cursor made by {@link #encode} with the same binding; else 400 validation-failed. */
    public List<String> decode(List<String> binding, String cursor, int fields) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            int cut = text.lastIndexOf(SEPARATOR);
            if (cut > 0) {
                String joined = text.substring(0, cut);
                List<String> position = List.of(joined.split(SEPARATOR, -1));
                byte[] given = text.substring(cut + 1).getBytes(StandardCharsets.UTF_8);
                if (position.size() == fields
                        && MessageDigest.isEqual(tag(binding, joined).getBytes(StandardCharsets.UTF_8), given)) {
                    return position;
                }
            }
        } catch (IllegalArgumentException e) {
            // not base64: the same answer as a wrong tag
        }
        throw invalid();
    }

    /** The answer to a cursor whose tag matched but whose fields do not parse or are out of range. */
    public static ValidationFailedException invalid() {
        return new ValidationFailedException("cursor", "is not a cursor of this listing; start again without it");
    }

    private String tag(List<String> binding, String position) {
        String bound = String.join("\n", binding) + "\n" + position;
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(Arrays.copyOf(mac.doFinal(bound.getBytes(StandardCharsets.UTF_8)), 16));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is required by every JVM", e);
        }
    }
}
