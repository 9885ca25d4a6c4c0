package dev.stockhold.outbox;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;

/**
 * Outbox rows written by a statement that commits on its own, outside any JTA transaction: the row is made here, the
 * caller's statement inserts it with the change it describes (I4), and once that statement has returned
 * {@link #committed} does what {@link OutboxWriter}'s after-commit hook does.
 */
@ApplicationScoped
public class AutocommitEvents {

    /** One outbox row to insert: the event id, its type, the CloudEvents payload and the trace it was written in. */
    public record Row(UUID id, String type, String payload, String traceparent) {
    }

    private final ObjectMapper mapper;
    private final RelaySignal relay;
    private final CommitTimes commitTimes;

    AutocommitEvents(ObjectMapper mapper, RelaySignal relay, CommitTimes commitTimes) {
        this.mapper = mapper;
        this.relay = relay;
        this.commitTimes = commitTimes;
    }

    /**
     * @param dataJson the event's data, already serialised (the reservation's answer): placed in the envelope as is, so
     *            the answer and the event hold the same bytes and are serialised once
     */
    public Row row(EventType type, String tenantId, String subject, Instant time, String dataJson) {
        UUID id = UUID.randomUUID();
        return new Row(id, type.type(), payload(id, type, tenantId, subject, time, new RawValue(dataJson)),
                TraceContext.currentTraceparent());
    }

    /** The CloudEvents JSON of one event, as stored in the outbox and published: the one place it is made. */
    String payload(UUID id, EventType type, String tenantId, String subject, Instant time, Object data) {
        try {
            return mapper.writeValueAsString(CloudEvent.of(id, type, tenantId, subject, time, data));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event payload is not serializable", e);
        }
    }

    /** The statement that wrote this event has committed: its publish lag starts now, and the relay is nudged. */
    public void committed(UUID eventId) {
        commitTimes.committed(List.of(eventId), System.nanoTime());
        relay.nudge();
    }
}
