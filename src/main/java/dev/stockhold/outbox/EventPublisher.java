package dev.stockhold.outbox;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Sends a batch to the broker and reports, per event, whether the broker confirmed it. */
public interface EventPublisher extends AutoCloseable {

    /**
     * Publishes in list order and waits for the broker's confirms.
     *
     * @return the events that were not confirmed, with why; every other event of the batch was confirmed
     */
    Map<UUID, PublishFailure> publish(List<OutboxEvent> batch, Duration timeout);

    /** What {@code /q/health/ready} shows: the broker as the last publish found it. */
    boolean lastPublishReachedBroker();

    String target();

    @Override
    default void close() {
    }

    /** Every event of the batch failed the same way. */
    static Map<UUID, PublishFailure> allFailed(List<OutboxEvent> batch, PublishFailure failure) {
        Map<UUID, PublishFailure> failures = new java.util.LinkedHashMap<>();
        batch.forEach(e -> failures.put(e.id(), failure));
        return failures;
    }
}
