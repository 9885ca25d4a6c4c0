package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.Api;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** The stock events (I4): one stock.changed per admin write, depleted and replenished exactly on the 0 crossings. */
@QuarkusTest
class StockEventsTest extends TenantFixture {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldDescribeEveryAdminWriteOnceWithItsDelta() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);
        api.adjust(Api.key(), sku, "WH-1", -4).then().statusCode(200);
        api.request().contentType("application/json").header("Idempotency-Key", Api.key()).body("{\"delta\":2,\"reason\":\"found\"}")
                .post("/v1/items/{sku}/stock/{location}/adjustments", sku, "WH-1").then().statusCode(200);
        api.setOnHand(sku, "WH-1", 3, null).then().statusCode(200);

        List<JsonNode> changed = events(sku, "WH-1").stream().filter(e -> e.path("type").asText().equals("dev.stockhold.stock.changed.v1"))
                .toList();
        assertThat(changed).extracting(e -> e.path("data").path("delta").asLong()).containsExactly(10L, -4L, 2L, -5L);
        assertThat(changed).extracting(e -> e.path("data").path("version").asLong()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(changed.get(2).path("data").path("reason").asText()).isEqualTo("found");
        JsonNode last = changed.get(3);
        assertThat(last.path("subject").asText()).isEqualTo(sku + "@WH-1");
        assertThat(last.path("data").path("onHand").asLong()).isEqualTo(3);
        assertThat(last.path("data").path("available").asLong()).isEqualTo(3);
        assertThat(last.path("tenantid").asText()).isEqualTo(api.tenant());
    }

    @Test
    void shouldPublishStockEventsUnderTheirRoutingKeysInTheOrderTheyWereWritten() {
        try (BrokerQueue broker = new BrokerQueue()) {
            String sku = Api.sku();
            api.setOnHand(sku, "WH-1", 2, null).then().statusCode(200);
            api.reserve(Api.key(), sku, 2).then().statusCode(201);
            Eventually.await(Duration.ofSeconds(10), "3 stock events", () -> broker.stockOf(api.tenant()).size() >= 3);
            assertThat(broker.stockOf(api.tenant())).extracting(BrokerQueue.Delivery::routingKey)
                    .containsExactly("stock.changed", "stock.replenished", "stock.depleted");
            assertThat(broker.stockOf(api.tenant())).allMatch(d -> d.subject().equals(sku + "@WH-1") && d.messageId().equals(d.eventId()));
        }
    }

    /**
     * Reservations and cancels race on a record of 4 units for several rounds; its depleted and replenished events
     * must alternate, start with the first write's replenished, and end in the record's final state.
     */
    @Test
    void shouldFireDepletedAndReplenishedExactlyOnTheZeroCrossings() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "default", 4, null).then().statusCode(200);
        List<String> held = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            List<String> toCancel = List.copyOf(held);
            held.clear();
            List<Response> answers = Race.run(12, i -> i < toCancel.size() ? api.cancel(toCancel.get(i)) : api.reserve(Api.key(), sku, 1));
            for (int i = toCancel.size(); i < answers.size(); i++) {
                if (answers.get(i).statusCode() == 201) {
                    held.add(answers.get(i).path("id"));
                }
            }
        }
        List<String> crossings = events(sku, "default").stream().map(e -> e.path("type").asText())
                .filter(t -> !t.equals("dev.stockhold.stock.changed.v1")).toList();
        assertThat(crossings).hasSizeGreaterThanOrEqualTo(3).first().isEqualTo("dev.stockhold.stock.replenished.v1");
        for (int i = 1; i < crossings.size(); i++) {
            assertThat(crossings.get(i)).as("crossing %d follows %s", i, crossings.get(i - 1)).isNotEqualTo(crossings.get(i - 1));
        }
        boolean empty = db.available(api.tenant(), sku) == 0;
        assertThat(crossings.get(crossings.size() - 1))
                .isEqualTo(empty ? "dev.stockhold.stock.depleted.v1" : "dev.stockhold.stock.replenished.v1");
    }

    private List<JsonNode> events(String sku, String location) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        for (String payload : db
                .queryStrings("SELECT payload::text FROM outbox_events WHERE tenant_id = ? AND event_type LIKE 'dev.stockhold.stock.%' "
                        + "ORDER BY seq", api.tenant())) {
            JsonNode event = JSON.readTree(payload);
            if (event.path("subject").asText().equals(sku + "@" + location)) {
                found.add(event);
            }
        }
        return found;
    }
}
