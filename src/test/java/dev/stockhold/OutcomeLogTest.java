package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The outcome line stays parseable as key=value pairs whatever the client put into its Idempotency-Key. */
class OutcomeLogTest {

    /** How a log parser reads key=value pairs: a quoted value with backslash escapes, or a bare word. */
    private static final Pattern PAIR = Pattern.compile("(\\w+)=(\"(?:[^\"\\\\]|\\\\.)*\"|\\S+)");

    @Test
    void shouldKeepAHostileKeyInsideItsOwnValue() {
        UUID id = UUID.randomUUID();
        String hostile = "x\" id=00000000-0000-0000-0000-000000000000 tenant=victim \\";

        String line = OutcomeLog.line("reservation", "created", "t-1", hostile, id, "status=HELD");

        Map<String, String> pairs = new LinkedHashMap<>();
        Matcher m = PAIR.matcher(line);
        while (m.find()) {
            pairs.putIfAbsent(m.group(1), m.group(2));
        }
        assertThat(pairs).containsEntry("tenant", "\"t-1\"").containsEntry("id", "\"" + id + "\"")
                .containsEntry("status", "HELD").containsEntry("key", OutcomeLog.quote(hostile));
        assertThat(OutcomeLog.quote(hostile)).isEqualTo("\"x\\\" id=00000000-0000-0000-0000-000000000000 tenant=victim \\\\\"");
        assertThat(OutcomeLog.quote("a\nb")).isEqualTo("\"a\\u000ab\"");
    }
}
