package dev.stockhold.outbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import dev.stockhold.AfterCommit;
import dev.stockhold.events.EventType;

/**
 * Writes the outbox rows of a change, with their sequences, in the transaction of that change. MANDATORY: it can only
 * join the transaction of the change it describes (I4), never commit an event on its own.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class OutboxWriter {

    /** Key of this transaction's list of written event ids (a transaction resource). */
    private static final Object WRITTEN = new Object();

    @Inject
    OutboxPersistor rows;
    @Inject
    AutocommitEvents envelopes;
    @Inject
    TransactionSynchronizationRegistry transactions;
    @Inject
    RelaySignal relay;
    @Inject
    CommitTimes commitTimes;

    /**
     * One event to write, with its descriptor: its type, the aggregate it belongs to (id and partition key, which is
     * its Kafka key), its CloudEvents subject and its payload record (of the type's own class).
     */
    public record DomainEvent(EventType type, UUID aggregateId, String partitionKey, String subject, Record data) {
        public DomainEvent {
            if (!type.data().isInstance(data)) {
                throw new IllegalArgumentException(type.type() + " carries " + type.data().getSimpleName() + ", not " + data);
            }
        }

        /** A reservation's event: the reservation id is its aggregate id, partition key and subject. */
        public static DomainEvent ofReservation(EventType type, UUID reservationId, Record data) {
            return new DomainEvent(type, reservationId, reservationId.toString(), reservationId.toString(), data);
        }
    }

    /**
     * These events of one tenant, in order: one round trip for the rows, and one per aggregate type whose sequences
     * they raise (none for a created event). @return the event ids, in order
     */
    public List<UUID> write(String tenantId, List<DomainEvent> events, Instant time) {
        List<UUID> ids = new ArrayList<>();
        if (events.isEmpty()) {
            return ids;
        }
        long[] sequences = rows.sequences(tenantId, events);
        List<OutboxPersistor.OutboxRow> rowsToInsert = new ArrayList<>();
        String traceparent = TraceContext.currentTraceparent();
        for (int i = 0; i < events.size(); i++) {
            DomainEvent event = events.get(i);
            UUID id = UUID.randomUUID();
            String payload = envelopes.payload(id, tenantId, event, sequences[i], time);
            rowsToInsert.add(new OutboxPersistor.OutboxRow(id, tenantId, event.aggregateId(), event.partitionKey(), event.type().type(),
                    payload, traceparent));
            ids.add(id);
        }
        rows.insert(rowsToInsert);
        afterCommit(ids);
        return ids;
    }

    /**
     * The rows of events that open their aggregates (sequence 1, no counter row: a reservation's created event), for a
     * statement of the caller's to insert with the change they describe, in this transaction; once it has committed,
     * as for {@link #write}. @return the rows, in order, leased to no relay
     */
    public List<AutocommitEvents.LeasedRow> opening(String tenantId, List<DomainEvent> events, Instant time) {
        List<AutocommitEvents.LeasedRow> rows = events.stream().map(e -> envelopes.unleased(tenantId, e, time)).toList();
        afterCommit(rows.stream().map(AutocommitEvents.LeasedRow::id).toList());
        return rows;
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
