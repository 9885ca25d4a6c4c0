package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class BackoffTest {

    static final Duration INITIAL = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofMinutes(5);

    @Test
    void shouldDoubleWithinJitterBoundsUpToTheMaximum() {
        UUID id = UUID.randomUUID();
        for (int attempt = 1; attempt <= 20; attempt++) {
            long ceiling = Math.min(MAX.toMillis(), INITIAL.toMillis() << (attempt - 1));
            assertThat(Backoff.delay(id, attempt, INITIAL, MAX).toMillis()).as("attempt %d", attempt)
                    .isBetween(ceiling / 2, ceiling);
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
