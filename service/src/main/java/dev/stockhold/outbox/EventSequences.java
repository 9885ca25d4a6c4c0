package dev.stockhold.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import dev.stockhold.events.AggregateType;
import io.agroal.api.AgroalDataSource;

/**
 * The CloudEvents {@code sequence} of each event: contiguous per aggregate from 1, given in the transaction that writes
 * the event (it joins the caller's, like {@link OutboxRepository#insert}), so a rollback gives the numbers back and a
 * redelivery carries the same one. The aggregate's lock orders its writers: a reservation's row or a stock record's row
 * is locked by the change before its event is written, and the counter row is locked by this upsert until commit.
 */
@ApplicationScoped
class EventSequences {

    /** Per aggregate, the last sequence after adding {@code n}; a new counter starts after the sequences taken without one. */
    static final String NEXT = """
            INSERT INTO event_sequences AS s (aggregate_id, tenant_id, last_sequence)
            SELECT u.aggregate_id, ?, ? + u.n FROM unnest(?::uuid[], ?::bigint[]) AS u(aggregate_id, n) ORDER BY u.aggregate_id
            ON CONFLICT (aggregate_id) DO UPDATE SET last_sequence = s.last_sequence + excluded.last_sequence - ?
            RETURNING s.aggregate_id, s.last_sequence
            """;

    private final AgroalDataSource dataSource;

    EventSequences(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * @return each event's sequence, in order: 1 for an event that opens its aggregate, else the aggregate's next ones (one
     *         round trip per aggregate type present, none when every event opens its aggregate)
     */
    long[] assign(String tenantId, List<OutboxWriter.Event> events) {
        Map<AggregateType, TreeMap<UUID, Long>> counts = new EnumMap<>(AggregateType.class);
        for (OutboxWriter.Event e : events) {
            if (!e.type().opensAggregate()) {
                counts.computeIfAbsent(e.type().aggregateType(), t -> new TreeMap<>()).merge(e.aggregateId(), 1L, Long::sum);
            }
        }
        Map<UUID, Long> next = new HashMap<>();
        counts.forEach((type, byAggregate) -> raise(tenantId, type, byAggregate)
                .forEach((aggregate, last) -> next.put(aggregate, last - byAggregate.get(aggregate) + 1)));
        long[] sequences = new long[events.size()];
        for (int i = 0; i < events.size(); i++) {
            OutboxWriter.Event e = events.get(i);
            sequences[i] = e.type().opensAggregate() ? 1 : next.merge(e.aggregateId(), 1L, Long::sum) - 1;
        }
        return sequences;
    }

    /** @return each aggregate's last sequence after the raise */
    private Map<UUID, Long> raise(String tenantId, AggregateType type, TreeMap<UUID, Long> byAggregate) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(NEXT)) {
            ps.setString(1, tenantId);
            ps.setLong(2, type.sequencesWithoutCounter());
            ps.setArray(3, c.createArrayOf("uuid", byAggregate.keySet().toArray()));
            ps.setArray(4, c.createArrayOf("bigint", byAggregate.values().toArray()));
            ps.setLong(5, type.sequencesWithoutCounter());
            Map<UUID, Long> last = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    last.put(rs.getObject(1, UUID.class), rs.getLong(2));
                }
            }
            if (last.size() != byAggregate.size()) {
                throw new IllegalStateException("sequences raised for " + last.keySet() + ", asked for " + byAggregate.keySet());
            }
            return last;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
