package dev.stockhold.client.events;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

/**
 * Processes each event once although the broker delivers it at least once: the event's id is recorded in the
 * consumer's own database, in the same transaction as the consumer's effect, and an id already recorded is skipped.
 * A crash before the commit leaves neither (the redelivery does both); after it, both (the redelivery is skipped).
 * Acknowledge the message (RabbitMQ) or commit the offset (Kafka) after {@link #consume} returns.
 */
public final class DeduplicatingConsumer {

    /** The table of processed ids (PostgreSQL); the name may be changed with {@link #DeduplicatingConsumer(DataSource, String)}. */
    public static final String DDL = "CREATE TABLE IF NOT EXISTS stockhold_processed_events ("
            + "event_id uuid PRIMARY KEY, processed_at timestamptz NOT NULL DEFAULT now())";

    /** The effect of one event, in the given connection's transaction (do not commit it). */
    @FunctionalInterface
    public interface Effect {
        void apply(Connection transaction, CloudEvent<Object> event) throws SQLException;
    }

    private final DataSource dataSource;
    private final String insert;

    public DeduplicatingConsumer(DataSource dataSource) {
        this(dataSource, "stockhold_processed_events");
    }

    /** @param table a table shaped as {@link #DDL}: a plain SQL name, it is not quoted */
    public DeduplicatingConsumer(DataSource dataSource, String table) {
        if (!table.matches("[A-Za-z_][A-Za-z0-9_.]{0,126}")) {
            throw new IllegalArgumentException("a table name of letters, digits, _ and .: " + table);
        }
        this.dataSource = dataSource;
        this.insert = "INSERT INTO " + table + " (event_id) VALUES (?) ON CONFLICT DO NOTHING";
    }

    /**
     * Parses the message and applies {@code effect} once per event id.
     *
     * @return false when the id was processed before (nothing applied)
     */
    public boolean consume(byte[] message, Effect effect) throws SQLException {
        CloudEvent<Object> event = Events.parse(message);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement seen = connection.prepareStatement(insert)) {
                seen.setObject(1, event.id());
                boolean first = seen.executeUpdate() == 1;
                if (first) {
                    effect.apply(connection, event);
                }
                connection.commit();
                return first;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }
}
