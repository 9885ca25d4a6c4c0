package dev.stockhold;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of text: a request's fingerprint, a verified token's cache key. */
public final class Digests {

    private Digests() {
    }

    /**
     * SHA-256 of the text's exact UTF-8 bytes. Text without a UTF-8 form (an unpaired surrogate) is refused with an
     * IllegalArgumentException rather than replaced, so two different texts never hash alike; request bodies never get
     * here with such text (dev.stockhold.web.Text).
     */
    public static byte[] sha256(String text) {
        ByteBuffer bytes;
        try {
            bytes = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("text without a UTF-8 form (an unpaired surrogate)", e);
        }
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(bytes);
            return digest.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }
}
