package dev.stockhold.outbox;

import java.time.Instant;
import java.util.UUID;

/**
 * A claimed outbox row: what a publisher sends. {@code payload} is the CloudEvents JSON as written; {@code partitionKey}
 * its Kafka key (null on rows an earlier release wrote).
 */
public record ClaimedRow(UUID id, long seq, String tenantId, UUID aggregateId, String type, String payload, int attempts,
        Instant createdAt, String traceparent, String partitionKey) {
}
