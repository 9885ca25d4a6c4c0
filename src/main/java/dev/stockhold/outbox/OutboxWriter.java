package dev.stockhold.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.AfterCommit;
import io.agroal.api.AgroalDataSource;

/**
 * Writes one outbox row per reservation state change. MANDATORY: it can only join the transaction of the
 * change it describes (I4), never commit an event on its own.
 */
@ApplicationScoped
@Transactional(Transactional.TxType.MANDATORY)
public class OutboxWriter {

    private static final String INSERT = """
            INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, traceparent, created_at, available_at)
            VALUES (?, ?, ?, ?, ?, ?, now(), now())
            """;

    private static final Object NUDGE_REGISTERED = new Object();

    private final AgroalDataSource dataSource;
    private final ObjectMapper mapper;
    private final TransactionSynchronizationRegistry transactions;
    private final RelaySignal relay;

    OutboxWriter(AgroalDataSource dataSource, ObjectMapper mapper, TransactionSynchronizationRegistry transactions,
            RelaySignal relay) {
        this.dataSource = dataSource;
        this.mapper = mapper;
        this.transactions = transactions;
        this.relay = relay;
    }

    /** @return the event id, stable across every redelivery */
    public UUID write(EventType type, String tenantId, UUID aggregateId, Instant time, Object data) {
        return writeAll(type, tenantId, Map.of(aggregateId, data), time).get(0);
    }

    /** One event of this type for each aggregate of one tenant, in one round trip. @return the event ids, in order */
    public List<UUID> writeAll(EventType type, String tenantId, Map<UUID, ?> dataByAggregate, Instant time) {
        List<UUID> ids = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(INSERT)) {
            for (Map.Entry<UUID, ?> entry : dataByAggregate.entrySet()) {
                UUID id = UUID.randomUUID();
                String payload;
                try {
                    payload = mapper.writeValueAsString(CloudEvent.of(id, type, tenantId, entry.getKey().toString(), time,
                            entry.getValue()));
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("event payload is not serializable", e);
                }
                ps.setObject(1, id, Types.OTHER);
                ps.setString(2, tenantId);
                ps.setObject(3, entry.getKey(), Types.OTHER);
                ps.setString(4, type.type());
                ps.setString(5, payload);
                ps.setString(6, TraceContext.currentTraceparent());
                ps.addBatch();
                ids.add(id);
            }
            ps.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        nudgeRelayAfterCommit();
        return ids;
    }

    /** In-process and after commit only: no LISTEN/NOTIFY, whose commit-time lock would serialise writers. */
    private void nudgeRelayAfterCommit() {
        if (transactions.getResource(NUDGE_REGISTERED) != null) {
            return;
        }
        transactions.putResource(NUDGE_REGISTERED, Boolean.TRUE);
        AfterCommit.run(transactions, relay::nudge);
    }
}
