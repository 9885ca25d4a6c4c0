package dev.stockhold.outbox;

import java.sql.Connection;
import java.sql.Types;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.events.AggregateType;

/**
 * The write side of the outbox: new events and their sequences, always in the transaction of the change they describe
 * ({@link OutboxJdbc#batchInCallersTransaction}; it refuses to run without one). {@link OutboxWriter} is its only caller.
 *
 * <p>
 * The CloudEvents {@code sequence} of each event is contiguous per aggregate from 1, raised here in that transaction, so
 * a rollback gives the numbers back and a redelivery carries the same one. The aggregate's lock orders its writers: a
 * reservation's row or a stock record's row is locked by the change before its event is written, and the counter row
 * by this upsert until commit.
 */
@ApplicationScoped
class OutboxPersistor {

    /** A new row: the event as it will be published, byte for byte. */
    record OutboxRow(UUID id, String tenantId, UUID aggregateId, String partitionKey, String type, String payload, String traceparent) {
    }

    @Inject
    OutboxJdbc jdbc;

    /** Inserts the rows in one round trip, in the caller's transaction. */
    void insert(List<OutboxRow> events) {
        jdbc.batchInCallersTransaction(OutboxDialect.INSERT, events, (ps, event) -> {
            ps.setObject(1, event.id(), Types.OTHER);
            ps.setString(2, event.tenantId());
            ps.setObject(3, event.aggregateId(), Types.OTHER);
            ps.setString(4, event.partitionKey());
            ps.setString(5, event.type());
            ps.setString(6, event.payload());
            ps.setString(7, event.traceparent());
        });
    }

    /**
     * @return each event's sequence, in order: 1 for an event that opens its aggregate, else the aggregate's next ones (one
     *         round trip per aggregate type present, none when every event opens its aggregate)
     */
    long[] sequences(String tenantId, List<OutboxWriter.DomainEvent> events) {
        Map<AggregateType, TreeMap<UUID, Long>> counts = new EnumMap<>(AggregateType.class);
        for (OutboxWriter.DomainEvent e : events) {
            if (!e.type().opensAggregate()) {
                counts.computeIfAbsent(e.type().aggregateType(), t -> new TreeMap<>()).merge(e.aggregateId(), 1L, Long::sum);
            }
        }
        Map<UUID, Long> next = new HashMap<>();
        counts.forEach((type, byAggregate) -> raise(tenantId, type, byAggregate)
                .forEach((aggregate, last) -> next.put(aggregate, last - byAggregate.get(aggregate) + 1)));
        long[] sequences = new long[events.size()];
        for (int i = 0; i < events.size(); i++) {
            OutboxWriter.DomainEvent e = events.get(i);
            sequences[i] = e.type().opensAggregate() ? 1 : next.merge(e.aggregateId(), 1L, Long::sum) - 1;
        }
        return sequences;
    }

    /** @return each aggregate's last sequence after the raise */
    private Map<UUID, Long> raise(String tenantId, AggregateType type, TreeMap<UUID, Long> byAggregate) {
        Map<UUID, Long> last = jdbc.queryInCallersTransaction(OutboxDialect.NEXT_SEQUENCES, ps -> {
            Connection c = ps.getConnection();
            ps.setString(1, tenantId);
            ps.setLong(2, type.sequencesWithoutCounter());
            ps.setArray(3, c.createArrayOf("uuid", byAggregate.keySet().toArray()));
            ps.setArray(4, c.createArrayOf("bigint", byAggregate.values().toArray()));
            ps.setLong(5, type.sequencesWithoutCounter());
        }, rs -> {
            Map<UUID, Long> raised = new HashMap<>();
            while (rs.next()) {
                raised.put(rs.getObject(1, UUID.class), rs.getLong(2));
            }
            return raised;
        });
        if (last.size() != byAggregate.size()) {
            throw new IllegalStateException("sequences raised for " + last.keySet() + ", asked for " + byAggregate.keySet());
        }
        return last;
    }
}
