package dev.stockhold.outbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import dev.stockhold.AfterCommit;

/**
 * Writes one outbox row per reservation state change. MANDATORY: it can only join the transaction of the
 * change it describes (I4), never commit an event on its own.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class OutboxWriter {

    /** Key of this transaction's list of written event ids (a transaction resource). */
    private static final Object WRITTEN = new Object();

    private final OutboxRepository rows;
    private final AutocommitEvents envelopes;
    private final TransactionSynchronizationRegistry transactions;
    private final RelaySignal relay;
    private final CommitTimes commitTimes;

    OutboxWriter(OutboxRepository rows, AutocommitEvents envelopes, TransactionSynchronizationRegistry transactions,
            RelaySignal relay, CommitTimes commitTimes) {
        this.rows = rows;
        this.envelopes = envelopes;
        this.transactions = transactions;
        this.relay = relay;
        this.commitTimes = commitTimes;
    }

    /** One event to write: its type, the aggregate it orders under, its CloudEvents subject and data. */
    public record Event(EventType type, UUID aggregateId, String subject, Object data) {
    }

    /** @return the event id, stable across every redelivery */
    public UUID write(EventType type, String tenantId, UUID aggregateId, Instant time, Object data) {
        return writeAll(type, tenantId, Map.of(aggregateId, data), time).get(0);
    }

    /** One event of this type for each aggregate of one tenant (subject = aggregate id), in one round trip. */
    public List<UUID> writeAll(EventType type, String tenantId, Map<UUID, ?> dataByAggregate, Instant time) {
        List<Event> events = new ArrayList<>();
        dataByAggregate.forEach((aggregate, data) -> events.add(new Event(type, aggregate, aggregate.toString(), data)));
        return write(tenantId, events, time);
    }

    /** These events of one tenant, in order, in one round trip. @return the event ids, in order */
    public List<UUID> write(String tenantId, List<Event> events, Instant time) {
        List<UUID> ids = new ArrayList<>();
        if (events.isEmpty()) {
            return ids;
        }
        List<OutboxRepository.NewEvent> rowsToInsert = new ArrayList<>();
        String traceparent = TraceContext.currentTraceparent();
        for (Event event : events) {
            UUID id = UUID.randomUUID();
            String payload = envelopes.payload(id, event.type(), tenantId, event.subject(), time, event.data());
            rowsToInsert.add(new OutboxRepository.NewEvent(id, tenantId, event.aggregateId(), event.type().type(), payload, traceparent));
            ids.add(id);
        }
        rows.insert(rowsToInsert);
        afterCommit(ids);
        return ids;
    }

    /**
     * Once the transaction has committed: note the commit time of its events (the publish lag starts there) and nudge
     * the relay. In-process only: no LISTEN/NOTIFY, whose commit-time lock would serialise writers.
     */
    @SuppressWarnings("unchecked")
    private void afterCommit(List<UUID> ids) {
        List<UUID> written = (List<UUID>) transactions.getResource(WRITTEN);
        if (written != null) {
            written.addAll(ids);
            return;
        }
        List<UUID> all = new ArrayList<>(ids);
        transactions.putResource(WRITTEN, all);
        AfterCommit.run(transactions, () -> {
            commitTimes.committed(all, System.nanoTime());
            relay.nudge();
        });
    }
}
