package dev.stockhold.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.client.events.DeduplicatingConsumer;
import dev.stockhold.client.events.data.ReservationCreatedV1;
import dev.stockhold.support.Api;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Race;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The Java client's consumer helper with events the relay really published to RabbitMQ: each event id is applied once
 * in the consumer's own transaction, whether it arrives twice in a row, eight times at once, or again after an effect
 * that failed.
 */
@QuarkusTest
class DeduplicatingConsumerTest {

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final String processed = "client_processed_" + suffix;
    private final String effects = "client_effects_" + suffix;

    @Inject
    DataSource dataSource;

    @BeforeEach
    void createTables() throws SQLException {
        execute(DeduplicatingConsumer.DDL.replace("stockhold_processed_events", processed));
        execute("CREATE TABLE " + effects + " (event_id uuid NOT NULL, type text NOT NULL)");
    }

    @AfterEach
    void dropTables() throws SQLException {
        execute("DROP TABLE IF EXISTS " + processed + ", " + effects);
    }

    @Test
    void shouldApplyEachPublishedEventOnceHoweverOftenItArrives() throws Exception {
        byte[] message = publishedReservationCreated();
        DeduplicatingConsumer consumer = new DeduplicatingConsumer(dataSource, processed);
        DeduplicatingConsumer.Effect record = (transaction, event) -> {
            assertThat(event.data()).isInstanceOf(ReservationCreatedV1.class);
            try (PreparedStatement insert = transaction.prepareStatement("INSERT INTO " + effects + " VALUES (?, ?)")) {
                insert.setObject(1, event.id());
                insert.setString(2, event.type());
                insert.executeUpdate();
            }
        };
        assertThatThrownBy(() -> consumer.consume(message, (transaction, event) -> {
            record.apply(transaction, event);
            throw new SQLException("the consumer's effect failed after writing");
        })).hasMessageContaining("effect failed");
        assertThat(count(effects)).as("a failed effect leaves nothing behind, its id included").isZero();

        List<Boolean> applied = Race.run(8, i -> {
            try {
                return consumer.consume(message, record);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(applied).as("eight deliveries of one event at the same instant").containsOnlyOnce(true);
        assertThat(consumer.consume(message, record)).as("a later redelivery").isFalse();
        assertThat(count(effects)).isEqualTo(1);
        assertThat(count(processed)).isEqualTo(1);
    }

    private static byte[] publishedReservationCreated() {
        Api api = Api.newTenant();
        String sku = Api.sku();
        try (BrokerQueue broker = new BrokerQueue()) {
            api.setOnHand(sku, "default", 5, null).then().statusCode(200);
            api.reserve(Api.key(), sku, 2).then().statusCode(201);
            Eventually.await(Duration.ofSeconds(15), "the reservation's created event", () -> !broker.of(api.tenant()).isEmpty());
            return broker.of(api.tenant()).get(0).event().toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    private long count(String table) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT count(*) FROM " + table)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
