package dev.stockhold.web;

/**
 * Which strings Stockhold accepts from a client: valid Unicode (every surrogate paired) without NUL. PostgreSQL cannot
 * store NUL in text, and an unpaired surrogate has no UTF-8 form, so a lenient encoder would turn it into {@code ?} and
 * two different requests would share one fingerprint.
 */
public final class Text {

    static final String UNCLEAN = "must be valid Unicode without NUL characters (no unpaired surrogates, no \\u0000)";

    private Text() {
    }

    public static boolean isClean(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000' || Character.isLowSurrogate(c)) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }
}
