package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.IdempotencyRepository;
import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.support.Api;
import dev.stockhold.support.Repository;
import dev.stockhold.support.TenantFixture;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Every route writes a new reservation through {@link NewReservations}, and what it writes reads back as what it
 * answered: the reservation as read equals the 201 stored with its key, and its one created event carries that answer
 * (one line per record held).
 */
@QuarkusTest
class NewReservationsTest extends TenantFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    NewReservations writer;
    @Inject
    HeldViews views;
    @Inject
    IdempotencyRepository keys;
    @Inject
    java.time.Clock clock;

    @BeforeEach
    void stock() {
        api.putLocation("WH-1", 1);
        api.putLocation("WH-2", 2);
        api.setOnHand(sku, "WH-1", 3, null).then().statusCode(200);
        api.setOnHand(sku, "WH-2", 5, null).then().statusCode(200);
    }

    /** No other class of the service inserts a reservation; an edit replaces a HELD reservation's lines, nothing more. */
    @Test
    void shouldBeTheOnlyCodeThatInsertsAReservationOrItsLines() throws IOException {
        assertThat(filesContaining("INSERT INTO reservations ")).containsExactly("NewReservations.java");
        assertThat(filesContaining("INSERT INTO reservation_lines ")).containsExactlyInAnyOrder("NewReservations.java",
                "ReservationRepository.java");
    }

    @Test
    void shouldWriteWhatItAnswersInOneStatement() throws IOException {
        assertReadsBackAsAnswered(api.reserve(Api.key(), sku, 1));
    }

    /** All of WH-1's units: the hold empties the record, which the one statement leaves to the transaction. */
    @Test
    void shouldWriteWhatItAnswersInATransaction() throws IOException {
        String id = assertReadsBackAsAnswered(api.reserve(Api.key(), sku, 3));
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND event_type LIKE '%stock.depleted%'",
                api.tenant())).as("the transactional path wrote the depleted event").isEqualTo(1);
        assertThat(db.eventTypes(id)).hasSize(1);
    }

    @Test
    void shouldWriteWhatItAnswersForSplitAndPartialRequests() throws IOException {
        assertReadsBackAsAnswered(api.reserve(Api.key(), body("split", 6)));
        assertReadsBackAsAnswered(api.reserve(Api.key(), body("partial", 9)));
    }

    @Test
    void shouldWriteWhatItAnswersForACappedReference() throws IOException {
        api.request().contentType("application/json").body("{\"maxHeldPerReference\":2}").put("/v1/settings").then().statusCode(200);
        assertReadsBackAsAnswered(api.reserve(Api.key(), "{\"lines\":" + Api.line(sku, 2) + ",\"reference\":\"order-1\"}"));
    }

    /** A hot-sku group: several reservations in one statement, their keys claimed first, one hold of their sum. */
    @Test
    void shouldWriteAGroupInOneStatement() throws IOException {
        Map<String, ReservationView> byKey = new LinkedHashMap<>();
        List<IdempotencyRepository.Claim> claims = new java.util.ArrayList<>();
        Instant now = dev.stockhold.Clocks.now(clock);
        for (int quantity = 1; quantity <= 2; quantity++) {
            ReservationRequest request = new ReservationRequest(List.of(new ReservationRequest.Line(sku, quantity, null)), null, null,
                    null, null, null, null, null);
            ReservationView view = views.held(request, new Allocation.Placed(List.of(new StockKey(sku, "WH-1"))), now);
            IdempotencyKey key = IdempotencyKey.parse(Api.key());
            byKey.put(key.value(), view);
            claims.add(new IdempotencyRepository.Claim(key, request.fingerprint(), views.created(view)));
        }
        boolean held = QuarkusTransaction.requiringNew().call(() -> {
            assertThat(keys.claimAll(api.tenant(), claims)).containsExactly(true, true);
            return writer.write(api.tenant(), byKey, now);
        });

        assertThat(held).isTrue();
        for (ReservationView view : byKey.values()) {
            assertReadsBack(view.id().toString(), views.created(view).body());
        }
        assertThat(db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'WH-1'", api.tenant(),
                sku)).isEqualTo(3);
        assertThat(db.reservationsWithWrongEventCount(api.tenant())).isZero();
    }

    private String assertReadsBackAsAnswered(Response created) throws IOException {
        created.then().statusCode(201);
        String id = created.path("id");
        assertReadsBack(id, created.asString());
        return id;
    }

    private void assertReadsBack(String id, String answer) throws IOException {
        JsonNode answered = JSON.readTree(answer);
        assertThat(JSON.readTree(api.get(id).then().statusCode(200).extract().asString())).as("reservation %s as read", id)
                .isEqualTo(answered);
        String payload = db.queryStrings("SELECT payload FROM outbox_events WHERE tenant_id = ? AND aggregate_id = ?::uuid",
                api.tenant(), id).get(0);
        assertThat(JSON.readTree(payload).get("data")).as("its created event's data").isEqualTo(asEvent(answered));
        assertThat(db.eventTypes(id)).as("one event").hasSize(1);
    }

    /** The answer as the created event carries it: one line per record held, without the allocation mode. */
    private static JsonNode asEvent(JsonNode answer) {
        com.fasterxml.jackson.databind.node.ObjectNode event = answer.deepCopy();
        event.remove("allocation");
        com.fasterxml.jackson.databind.node.ArrayNode rows = event.putArray("lines");
        for (JsonNode line : answer.get("lines")) {
            if (!line.has("allocations")) {
                rows.add(line);
                continue;
            }
            for (JsonNode part : line.get("allocations")) {
                rows.addObject().put("sku", line.get("sku").asText()).put("quantity", part.get("quantity").asInt()).put("location",
                        part.get("location").asText());
            }
        }
        return event;
    }

    private String body(String allocation, int quantity) {
        return "{\"lines\":" + Api.line(sku, quantity) + ",\"allocation\":\"" + allocation + "\"}";
    }

    private static List<String> filesContaining(String text) throws IOException {
        try (Stream<Path> files = Files.walk(Repository.path("src/main/java"))) {
            return files.filter(f -> f.toString().endsWith(".java")).filter(f -> {
                try {
                    return Files.readString(f).contains(text);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).map(f -> f.getFileName().toString()).toList();
        }
    }
}
