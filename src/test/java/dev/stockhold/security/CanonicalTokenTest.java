package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.smallrye.jwt.auth.principal.ParseException;

/**
 * {@link VerifiedTokens#requireCanonical} decides which spellings of a token are one cache key. It checks every
 * character in one pass; this test holds it to the rule as written in RFC 7515 terms (a regular expression for the
 * compact form, then the leftover bits of each part), over chosen cases and 200,000 random near-tokens, so a pass that accepts one spelling more or one less fails here.
 */
class CanonicalTokenTest {

    private static final Pattern COMPACT = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
    private static final String BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    @Test
    void shouldAcceptOnlyCompactCanonicalTokens() {
        assertThat(canonical("eyJh.eyJz.c2ln")).isTrue();
        assertThat(canonical("eyJhbA.eyJzdWI.c2lnbg")).isTrue();
        assertThat(canonical("eyJhbA.eyJzdWI.c2lnbh")).as("leftover bits not zero").isFalse();
        assertThat(canonical("eyJh.eyJz.c2ln=")).as("padding").isFalse();
        assertThat(canonical("eyJh.eyJz")).as("two parts").isFalse();
        assertThat(canonical("eyJh.eyJz.c2ln.c2ln")).as("four parts").isFalse();
        assertThat(canonical("eyJh..c2ln")).as("an empty part").isFalse();
        assertThat(canonical(".eyJz.c2ln")).isFalse();
        assertThat(canonical("eyJh.eyJz.")).isFalse();
        assertThat(canonical("eyJh.eyJz.c2l+")).as("base64, not base64url").isFalse();
        assertThat(canonical("eyJh.eyJz.c2lé")).as("not ASCII").isFalse();
        assertThat(canonical("eyJh.eyJz.c2lnb")).as("a part of one six-bit character too many").isFalse();
        assertThat(canonical("")).isFalse();
        assertThat(canonical("a".repeat(16_385))).as("too long").isFalse();
        assertThatThrownBy(() -> VerifiedTokens.requireCanonical(null)).isInstanceOf(ParseException.class);
    }

    @Test
    void shouldDecideEveryRandomSpellingAsTheRuleDoes() {
        Random random = new Random(42);
        String base64url = "AQgw_-a0";
        String other = ".=+/\u00e9\u0100 ";
        int accepted = 0;
        for (int n = 0; n < 200_000; n++) {
            // two to four parts of 0-6 base64url characters, then, one time in three, another character put anywhere
            StringBuilder token = new StringBuilder();
            for (int part = 2 + random.nextInt(3); part > 0; part--) {
                for (int i = random.nextInt(7); i > 0; i--) {
                    token.append(base64url.charAt(random.nextInt(base64url.length())));
                }
                token.append(part > 1 ? "." : "");
            }
            if (random.nextInt(3) == 0) {
                token.insert(random.nextInt(token.length() + 1), other.charAt(random.nextInt(other.length())));
            }
            String t = token.toString();
            boolean expected = byTheRule(t);
            accepted += expected ? 1 : 0;
            assertThat(canonical(t)).as("%s", t).isEqualTo(expected);
        }
        assertThat(accepted).as("the random strings include canonical tokens").isGreaterThan(100);
    }

    private static boolean canonical(String token) {
        try {
            VerifiedTokens.requireCanonical(token);
            return true;
        } catch (ParseException e) {
            return false;
        }
    }

    /** The rule: the compact form, and in each part the bits the last character leaves over are zero (none left at 6). */
    private static boolean byTheRule(String token) {
        if (token.length() > 16_384 || !COMPACT.matcher(token).matches()) {
            return false;
        }
        for (String part : token.split("\\.")) {
            int leftover = (part.length() * 6) % 8;
            int last = BASE64URL.indexOf(part.charAt(part.length() - 1));
            if (leftover == 6 || leftover != 0 && (last & ((1 << leftover) - 1)) != 0) {
                return false;
            }
        }
        return true;
    }
}
