package dev.stockhold.outbox;

import java.time.Duration;
import java.util.List;

/**
 * Sends batches to the broker. {@link #send} hands a batch over without waiting, so the relay can claim the next
 * batch while the broker confirms this one; {@link Sent#await} then says what the broker made of it.
 */
public interface EventPublisher extends AutoCloseable {

    /** Publishes the events in list order; confirms are collected by the returned handle. */
    Sent send(List<ClaimedRow> batch);

    /** Sends and waits: one batch at a time. */
    default PublishOutcome publish(List<ClaimedRow> batch, Duration timeout) {
        return send(batch).await(timeout);
    }

    /**
     * Whether the broker can be reached now (a connection opens, the topology is there). The relay calls it while
     * paused after an {@link PublishOutcome.Unreachable}, and resumes draining as soon as it answers true.
     */
    boolean probe();

    String target();

    /** Something about the broker's topology an operator should fix, for the health details. */
    default java.util.Optional<String> topologyWarning() {
        return java.util.Optional.empty();
    }

    @Override
    default void close() {
    }

    /** A batch handed to the broker, its confirms still to come. */
    interface Sent {
        /** Waits at most {@code timeout} for the broker's answer to every event of the batch. */
        PublishOutcome await(Duration timeout);

        static Sent answered(PublishOutcome outcome) {
            return timeout -> outcome;
        }
    }
}
