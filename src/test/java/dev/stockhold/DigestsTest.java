package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link Digests#sha256} hashes a text's exact UTF-8 bytes from a cloned digest, skipping the strict encoder when the
 * text has no surrogate: the same bytes as a digest made afresh, for ASCII, Latin-1, BMP and paired surrogates alike, and
 * an unpaired surrogate is refused rather than replaced (two texts never hash alike).
 */
class DigestsTest {

    @Test
    void shouldHashTheExactUtf8BytesOfAnyText() throws Exception {
        Random random = new Random(7);
        String alphabet = "a\u00e9\u20ac\uD83D\uDE00\u0000\"";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--) {
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                if (Character.isHighSurrogate(c)) {
                    text.append("\uD83D\uDE00"); // always paired here
                } else if (!Character.isLowSurrogate(c)) {
                    text.append(c);
                }
            }
            byte[] expected = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            assertThat(Digests.sha256(text.toString())).as("%s", text).isEqualTo(expected);
        }
    }

    @Test
    void shouldRefuseAnUnpairedSurrogate() {
        assertThatThrownBy(() -> Digests.sha256("a\uD83D")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Digests.sha256("\uDE00b")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Digests.sha256("a\uD83D\uDE00")).hasSize(32);
    }
}
