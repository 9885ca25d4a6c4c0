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

    /** Each digest is a clone of this one: a fraction of the cost of looking the provider up again. */
    private static final MessageDigest SHA_256 = lookUp();

    private Digests() {
    }

    /**
     * SHA-256 of the text's exact UTF-8 bytes. Text without a UTF-8 form (an unpaired surrogate) is refused with an
     * IllegalArgumentException rather than replaced, so two different texts never hash alike; request bodies never get
     * here with such text (dev.stockhold.web.Text).
     */
    public static byte[] sha256(String text) {
        MessageDigest digest = newSha256();
        if (hasSurrogate(text)) {
            digest.update(strictUtf8(text));
        } else {
            digest.update(text.getBytes(StandardCharsets.UTF_8));
        }
        return digest.digest();
    }

    private static MessageDigest newSha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            return lookUp(); // a provider whose digest cannot be cloned
        }
    }

    private static MessageDigest lookUp() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }

    /** Without a surrogate every char has one UTF-8 form, and String.getBytes cannot have replaced anything. */
    private static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static ByteBuffer strictUtf8(String text) {
        try {
            return StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("text without a UTF-8 form (an unpaired surrogate)", e);
        }
    }
}
