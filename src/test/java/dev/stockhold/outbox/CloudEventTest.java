package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

class CloudEventTest {

    @Test
    void shouldPadTheSequenceToNineteenDigits() {
        assertThat(CloudEvent.sequence(1)).isEqualTo("0000000000000000001");
        assertThat(CloudEvent.sequence(1_234_567)).isEqualTo("0000000000001234567");
        assertThat(CloudEvent.sequence(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
    }

    /** Consumers order events of one aggregate by comparing the attribute as a string. */
    @Test
    void shouldOrderAsStringsAsTheNumbersDo() {
        List<Long> numbers = LongStream.of(1, 9, 10, 99, 100, 12_345, 1L << 40, Long.MAX_VALUE - 1, Long.MAX_VALUE).boxed().toList();
        List<String> sorted = numbers.stream().map(CloudEvent::sequence).sorted().toList();
        assertThat(sorted).isEqualTo(numbers.stream().map(CloudEvent::sequence).toList());
        assertThat(sorted).allMatch(s -> s.length() == CloudEvent.SEQUENCE_DIGITS);
    }

    @Test
    void shouldRefuseASequenceBelowOne() {
        assertThatThrownBy(() -> CloudEvent.sequence(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CloudEvent.sequence(-5)).isInstanceOf(IllegalArgumentException.class);
    }
}
