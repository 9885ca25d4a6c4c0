package dev.stockhold.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.Api;
import dev.stockhold.support.EventContract;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * The CloudEvents {@code sequence} is contiguous per aggregate from 1, in the order the relay publishes (outbox seq),
 * however many writers race on the aggregate; {@code partitionkey} names the aggregate.
 */
@QuarkusTest
class EventSequenceTest extends TenantFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldNumberAReservationsEventsFromItsCreatedEvent() throws Exception {
        String sku = Api.sku();
        api.setStock(sku, 10);
        String id = api.reserve(Api.key(), sku, 2).then().statusCode(201).extract().path("id");
        extend(id).then().statusCode(200);
        api.confirm(id).then().statusCode(200);

        List<JsonNode> events = events("aggregate_id = ?::uuid", id);
        assertThat(events).extracting(e -> e.path("type").asText()).containsExactly("dev.stockhold.reservation.created.v1",
                "dev.stockhold.reservation.extended.v1", "dev.stockhold.reservation.confirmed.v1");
        assertThat(events).extracting(EventContract::sequence).containsExactly(1L, 2L, 3L);
        assertThat(events).allMatch(e -> e.path("partitionkey").asText().equals(id));
        events.forEach(EventContract::assertConforms);
    }

    /** Extends race on one reservation: each that wins takes the next number, none is taken twice or skipped. */
    @Test
    void shouldKeepAReservationsSequenceContiguousUnderRacingWriters() throws Exception {
        String sku = Api.sku();
        api.setStock(sku, 10);
        String id = api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id");

        List<Response> answers = Race.run(8, i -> i == 7 ? api.cancel(id) : extend(id));

        long won = answers.stream().filter(r -> r.statusCode() == 200).count();
        List<JsonNode> events = events("aggregate_id = ?::uuid", id);
        assertThat(events).hasSize((int) won + 1);
        assertThat(events).extracting(EventContract::sequence)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, won + 1).boxed().toList());
    }

    /** Reservations and cancels race on one record; its stock events (each 0 crossing) stay numbered 1, 2, 3, ... */
    @Test
    void shouldKeepAStockRecordsSequenceContiguousUnderRacingWriters() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "default", 3, null).then().statusCode(200);
        List<String> held = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            List<String> toCancel = List.copyOf(held);
            held.clear();
            List<Response> answers = Race.run(10, i -> i < toCancel.size() ? api.cancel(toCancel.get(i)) : api.reserve(Api.key(), sku, 1));
            for (int i = toCancel.size(); i < answers.size(); i++) {
                if (answers.get(i).statusCode() == 201) {
                    held.add(answers.get(i).path("id"));
                }
            }
        }
        api.adjust(Api.key(), sku, "default", 5).then().statusCode(200);

        List<JsonNode> events = events("event_type LIKE 'dev.stockhold.stock.%' AND payload LIKE ?",
                "%\"subject\":\"" + sku + "@default\"%");
        assertThat(events).hasSizeGreaterThanOrEqualTo(4);
        assertThat(events).extracting(EventContract::sequence)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, events.size()).boxed().toList());
        assertThat(events).allMatch(e -> e.path("partitionkey").asText().equals(api.tenant() + "/" + sku + "/default"));
        events.forEach(EventContract::assertConforms);
    }

    private Response extend(String id) {
        return api.request().contentType(ContentType.JSON).body("{\"ttlSeconds\":600}").post("/v1/reservations/{id}/extend", id);
    }

    /** This tenant's events matching the condition, in the relay's order. */
    private List<JsonNode> events(String condition, Object parameter) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        for (String payload : db.queryStrings("SELECT payload FROM outbox_events WHERE tenant_id = ? AND " + condition + " ORDER BY seq",
                api.tenant(), parameter)) {
            found.add(JSON.readTree(payload));
        }
        return found;
    }
}
