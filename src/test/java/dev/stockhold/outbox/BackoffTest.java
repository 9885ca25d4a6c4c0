package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class BackoffTest {

    static final Duration INITIAL = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofMinutes(5);

    /** The schedule as an operator reads it for a 1 s start and a 5 min cap: each delay within half of its ceiling. */
    @Test
    void shouldDoubleWithinJitterBoundsUpToTheMaximum() {
        long[][] attemptAndMillis = { { 1, 500, 1_000 }, { 2, 1_000, 2_000 }, { 3, 2_000, 4_000 }, { 5, 8_000, 16_000 },
                { 9, 128_000, 256_000 }, { 10, 150_000, 300_000 }, { 20, 150_000, 300_000 }, { 64, 150_000, 300_000 } };
        for (int i = 0; i < 200; i++) {
            UUID id = UUID.randomUUID();
            for (long[] expected : attemptAndMillis) {
                assertThat(Backoff.delay(id, (int) expected[0], INITIAL, MAX).toMillis()).as("attempt %d", expected[0])
                        .isBetween(expected[1], expected[2]);
            }
        }
    }

    @Test
    void shouldBeTheSameForTheSameEventOnEveryReplica() {
        UUID id = UUID.randomUUID();
        assertThat(Backoff.delay(id, 3, INITIAL, MAX)).isEqualTo(Backoff.delay(UUID.fromString(id.toString()), 3, INITIAL, MAX));
    }

    @Test
    void shouldSpreadTheRetriesOfDifferentEvents() {
        long distinct = IntStream.range(0, 100).mapToObj(i -> Backoff.delay(UUID.randomUUID(), 4, INITIAL, MAX)).distinct().count();
        assertThat(distinct).isGreaterThan(50);
    }
}
