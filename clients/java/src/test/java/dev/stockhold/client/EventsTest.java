package dev.stockhold.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.client.events.CloudEvent;
import dev.stockhold.client.events.Events;
import dev.stockhold.client.events.data.ReservationCreatedV1;
import dev.stockhold.client.events.data.StockChangedV1;

/** A delivered CloudEvent read into its type's record, with its sequence. */
class EventsTest {

    private static final String CREATED = "{\"specversion\":\"1.0\",\"id\":\"0b4e8a52-8f3c-4f0e-9d3e-2f6c1c1f2a10\",\"source\":\"/stockhold\","
            + "\"type\":\"dev.stockhold.reservation.created.v1\",\"subject\":\"9d3c0e4e-0000-4000-8000-000000000001\","
            + "\"time\":\"2026-01-01T00:00:00Z\",\"datacontenttype\":\"application/json\",\"tenantid\":\"acme\",\"sequence\":\"0000000000000000001\","
            + "\"partitionkey\":\"9d3c0e4e-0000-4000-8000-000000000001\",\"data\":{\"id\":\"9d3c0e4e-0000-4000-8000-000000000001\",\"status\":\"HELD\","
            + "\"lines\":[{\"sku\":\"A-1\",\"quantity\":2,\"location\":\"default\"}],\"expiresAt\":\"2026-01-01T00:15:00Z\","
            + "\"createdAt\":\"2026-01-01T00:00:00Z\",\"aFieldFromANewerService\":1}}";

    @Test
    void shouldReadTheDataAsTheTypesRecord() {
        CloudEvent<ReservationCreatedV1> event = Events.parse(CREATED, ReservationCreatedV1.class);
        assertThat(event.sequence()).isEqualTo(1);
        assertThat(event.tenant()).isEqualTo("acme");
        assertThat(event.data().lines()).singleElement().satisfies(line -> assertThat(line.quantity()).isEqualTo(2));
        assertThatThrownBy(() -> Events.parse(CREATED, StockChangedV1.class)).hasMessageContaining("not a StockChangedV1");
    }

    @Test
    void shouldKeepAnUnknownTypesDataAsJson() {
        CloudEvent<Object> event = Events.parse(CREATED.replace("reservation.created.v1", "reservation.teleported.v1"));
        assertThat(event.data()).isInstanceOf(JsonNode.class);
        assertThatThrownBy(() -> Events.parse("{\"type\":\"x\"}")).isInstanceOf(IllegalArgumentException.class);
    }
}
