package dev.stockhold.outbox;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.StockholdConfig;
import dev.stockhold.events.EventType;

/**
 * Outbox rows written by a statement that commits on its own, outside any JTA transaction: the row is made here, the
 * caller's statement inserts it with the change it describes (I4), and once that statement has returned
 * {@link #committed} does what {@link OutboxWriter}'s after-commit hook does, or hands the event to the local relay
 * when the row was written leased to it ({@link RelaySignal}). Also the one place an event's CloudEvents JSON is made,
 * for both writers.
 */
@ApplicationScoped
public class AutocommitEvents {

    /**
     * One outbox row to insert: the event id, its tenant, aggregate and type, the CloudEvents payload and the trace it
     * was written in; {@code leasedTo} the local relay's id when the row is to be written leased to it (then for
     * {@code leaseMillis}, counted from no later than {@code leasedAtNanos}), else both null.
     */
    public record LeasedRow(UUID id, String tenantId, UUID aggregateId, String type, String partitionKey, String payload,
            String traceparent,
            String leasedTo, Long leaseMillis, long leasedAtNanos) {
    }

    private final ObjectMapper mapper;
    private final RelaySignal relay;
    private final CommitTimes commitTimes;
    private final String schemaBase;
    private final long leaseMillis;

    AutocommitEvents(ObjectMapper mapper, RelaySignal relay, CommitTimes commitTimes, StockholdConfig config) {
        this.mapper = mapper;
        this.relay = relay;
        this.commitTimes = commitTimes;
        this.schemaBase = config.events().schemaBaseUri().orElse("urn:stockhold:schemas:events:"); // prod requires one
        this.leaseMillis = config.relay().lease().toMillis();
    }

    /** The row of an event that opens its aggregate (sequence 1, no counter row): a reservation's created event. */
    public LeasedRow opening(String tenantId, OutboxWriter.DomainEvent event, Instant time) {
        return opening(tenantId, event, time, relay.leaseHolder().orElse(null));
    }

    /** The same row, left for any relay to claim: for a statement in a JTA transaction ({@link OutboxWriter#opening}). */
    LeasedRow unleased(String tenantId, OutboxWriter.DomainEvent event, Instant time) {
        return opening(tenantId, event, time, null);
    }

    private LeasedRow opening(String tenantId, OutboxWriter.DomainEvent event, Instant time, String leasedTo) {
        if (!event.type().opensAggregate()) {
            throw new IllegalArgumentException(event.type() + " does not open its aggregate: its sequence needs the counter");
        }
        UUID id = UUID.randomUUID();
        return new LeasedRow(id, tenantId, event.aggregateId(), event.type().type(), event.partitionKey(),
                payload(id, tenantId, event, 1, time), TraceContext.currentTraceparent(), leasedTo, leasedTo == null ? null : leaseMillis,
                System.nanoTime());
    }

    /** The CloudEvents JSON of one event, as stored in the outbox and published: the one place it is made. */
    String payload(UUID id, String tenantId, OutboxWriter.DomainEvent event, long sequence, Instant time) {
        EventType type = event.type();
        try {
            return mapper.writeValueAsString(new CloudEvent<>("1.0", id, CloudEvent.SOURCE, type.type(), event.subject(), time,
                    "application/json", tenantId, schemaBase + type.type() + ".json", CloudEvent.sequence(sequence),
                    event.partitionKey(), event.data()));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event payload is not serializable", e);
        }
    }

    /**
     * The statement that wrote this row has committed, as its {@code seq} at {@code createdAt} (the database's values):
     * its publish lag starts now, and the relay is handed the event (the row is leased to it) or nudged to claim it.
     */
    public void afterCommit(LeasedRow row, long seq, Instant createdAt) {
        commitTimes.committed(List.of(row.id()), System.nanoTime());
        if (row.leasedTo() == null) {
            relay.nudge();
        } else {
            relay.hand(row.leasedTo(), new ClaimedRow(row.id(), seq, row.tenantId(), row.aggregateId(), row.type(), row.payload(), 0,
                    createdAt, row.traceparent(), row.partitionKey()), row.leasedAtNanos());
        }
    }
}
