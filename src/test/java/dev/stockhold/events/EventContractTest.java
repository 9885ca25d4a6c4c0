package dev.stockhold.events;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.EventContract;
import dev.stockhold.support.Repository;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The payload records and their published schemas say the same thing: every event type has a schema, served as kept in
 * the repository; each record's fields are the schema's properties, the required ones exactly those never omitted; and a
 * record as the service serialises it validates. The records are types of their own (ArchitectureTest keeps this package
 * free of the API's classes), so a change to a REST body cannot change an event.
 */
@QuarkusTest
class EventContractTest {

    /** Fields a record omits when absent: the only ones a schema may leave out of {@code required}. */
    // committed, kind and fulfilment were added to released v1 types, so they stay optional there
    private static final Set<String> OPTIONAL = Set.of("reference", "metadata", "reason", "committed", "kind", "fulfilment", "channel",
            "expectedAt", "backordered", "kits");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    ObjectMapper mapper;

    @Test
    void shouldServeTheSchemaOfEveryEventTypeAsKept() {
        for (EventType type : EventType.values()) {
            String kept = EventContract.schemaText(type);
            String served = given().get("/schemas/events/" + type.type() + ".json").then().statusCode(200)
                    .contentType("application/schema+json").extract().asString();
            assertThat(served).as(type.type()).isEqualTo(kept);
            given().get("/schemas/events/" + type.shortName() + ".json").then().statusCode(200);
        }
        given().get("/schemas/events/reservation.created.v9.json").then().statusCode(404)
                .body("type", equalTo("/problems/not-found"));
    }

    @Test
    void shouldServeTheAsyncApiDocumentKeptInDocs() throws IOException {
        String served = given().get("/asyncapi.yaml").then().statusCode(200).extract().asString();

        assertThat(served).isEqualTo(Files.readString(Repository.path("docs/asyncapi.yaml")));
    }

    @Test
    void shouldDeclareEachRecordsFieldsAsItsSchemasProperties() throws IOException {
        for (EventType type : EventType.values()) {
            JsonNode schema = JSON.readTree(EventContract.schemaText(type));
            Set<String> fields = new TreeSet<>(Arrays.stream(type.data().getRecordComponents()).map(RecordComponent::getName).toList());
            Set<String> properties = new TreeSet<>();
            schema.path("properties").fieldNames().forEachRemaining(properties::add);
            Set<String> required = new TreeSet<>();
            schema.path("required").forEach(n -> required.add(n.asText()));
            Set<String> expectedRequired = new TreeSet<>(fields);
            if (type != EventType.STOCK_LOW) {
                // a type released after these fields were added has them required
                expectedRequired.removeAll(OPTIONAL);
            }
            if (type == EventType.STOCK_DEPLETED || type == EventType.STOCK_REPLENISHED) {
                // added to these v1 types after their release: optional, as every field added to a released version is
                expectedRequired.removeAll(Set.of("safetyStock", "reservable"));
            }

            assertThat(properties).as("%s: the schema's properties are the record's fields", type.type()).isEqualTo(fields);
            assertThat(required).as("%s: required is every field never omitted", type.type()).isEqualTo(expectedRequired);
            assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
            assertThat(schema.path("$id").asText()).endsWith("/schemas/events/" + type.type() + ".json");
        }
    }

    @Test
    void shouldValidateEveryRecordAsTheServiceSerialisesIt() throws IOException {
        for (EventType type : EventType.values()) {
            String data = mapper.writeValueAsString(sample(type, 2));
            assertThat(EventContract.violations(type, data)).as("%s: %s", type.type(), data).isEmpty();
        }
        // and the validator does fail: a line of 0 units, a status of another type
        assertThat(EventContract.violations(EventType.CREATED, mapper.writeValueAsString(sample(EventType.CREATED, 0)))).isNotEmpty();
        String confirmedAsCreated = mapper.writeValueAsString(sample(EventType.CONFIRMED, 1));
        assertThat(EventContract.violations(EventType.CREATED, confirmedAsCreated)).isNotEmpty();
    }

    @Test
    void shouldRefuseAReservationRecordWithAnotherTypesStatus() {
        assertThatThrownBy(() -> new ReservationConfirmedV1(UUID.randomUUID(), "HELD", List.of(), Instant.now(), Instant.now(), null, null,
                null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CONFIRMED");
    }

    private static Record sample(EventType type, int quantity) {
        UUID id = UUID.randomUUID();
        Instant now = Instant.parse("2026-12-01T10:00:00.123Z");
        List<ReservationEventLine> lines = new ArrayList<>(List.of(new ReservationEventLine("A-1", quantity, "default")));
        Map<String, String> metadata = Map.of("channel", "web");
        return switch (type) {
            case CREATED -> new ReservationCreatedV1(id, "HELD", lines, now.plusSeconds(900), now, "order-1", metadata, "deferred", "b2b",
                    List.of(new dev.stockhold.events.ReservationPromiseLine("A-1", 2, "default", now.plusSeconds(86_400))),
                    List.of(new dev.stockhold.events.ReservationKitLine("SET-1", 1, lines)));
            case CREATED_V2 -> new dev.stockhold.events.ReservationCreatedV2(id, "HELD", List.of(), now.plusSeconds(900), now, null, null,
                    null, null, List.of(new dev.stockhold.events.ReservationPromiseLine("A-1", Math.max(quantity, 1), "WH-2", now)), null);
            case CANCELLED_V2 ->
                new dev.stockhold.events.ReservationCancelledV2(id, "CANCELLED", List.of(), now.plusSeconds(900), now, null,
                        metadata);
            case EXPIRED_V2 -> new dev.stockhold.events.ReservationExpiredV2(id, "EXPIRED", List.of(), now.plusSeconds(900), now, "order-1",
                    null);
            case CONFIRMED -> new ReservationConfirmedV1(id, "CONFIRMED", lines, now.plusSeconds(900), now, null, null, null);
            case CANCELLED -> new ReservationCancelledV1(id, "CANCELLED", lines, now.plusSeconds(900), now, null, metadata);
            case EXPIRED -> new ReservationExpiredV1(id, "EXPIRED", lines, now.plusSeconds(900), now, "order-1", null);
            case EXTENDED -> new ReservationExtendedV1(id, "HELD", lines, now.plusSeconds(1800), now, null, null);
            case UPDATED -> new ReservationUpdatedV1(id, "HELD", lines, List.of(new ReservationEventLine("A-1", 1, "default")),
                    now.plusSeconds(900), now, "order-1", null, List.of(new dev.stockhold.events.ReservationKitLine("SET-1", 1, lines)));
            case FULFILLED -> new ReservationFulfilledV1(id, "PARTIALLY_FULFILLED",
                    List.of(new ReservationCommitmentLine("A-1", quantity, "default", quantity > 1 ? 1 : 0, 0)),
                    List.of(new ReservationEventLine("A-1", quantity, "default")), now, "order-1", metadata);
            case RELEASED -> new ReservationReleasedV1(id, "FULFILLED",
                    List.of(new ReservationCommitmentLine("A-1", quantity, "default", 0, quantity)),
                    List.of(new ReservationEventLine("A-1", quantity, "default")), now, null, null);
            case STOCK_CHANGED -> new StockChangedV1("A-1", "default", 10, 2, 7, 3, -1, "count", 1L, StockChangedV1.Kind.ADJUST);
            case STOCK_DEPLETED -> new StockDepletedV1("A-1", "default", 4, 2, 2, 4, 0L, 2L, 0L);
            case STOCK_REPLENISHED -> new StockReplenishedV1("A-1", "default", 5, 2, 3, 5, 0L, 2L, 1L);
            case STOCK_LOW -> new StockLowV1("A-1", "default", 5, 2, 0, 3, 3, 1, 2, 5);
            case ALLOCATED -> new ReservationAllocatedV1(id, "HELD", lines, lines, null, now.plusSeconds(900), now, null, null);
            case REPROMISED -> new ReservationRepromisedV1(id, "HELD", lines,
                    List.of(new ReservationPromiseLine("A-1", Math.max(quantity, 1), "default", now)), now.plusSeconds(900), now, null,
                    null);
            case UNPROMISED ->
                new ReservationUnpromisedV1(id, "HELD", lines, List.of(new ReservationPromiseLine("A-1", 1, "default", null)),
                        now.plusSeconds(900), now, "order-1", metadata);
            case TRANSFER_SHIPPED ->
                new TransferShippedV1(id, "A-1", "WH-1", "WH-2", quantity, 0, 0, quantity, "IN_TRANSIT", "TO-1", now, now);
            case TRANSFER_RECEIVED -> new TransferReceivedV1(id, "A-1", "WH-1", "WH-2", 5, 2, 0, 3, "IN_TRANSIT", null, null, now, 2);
            case TRANSFER_CANCELLED -> new TransferCancelledV1(id, "A-1", "WH-1", "WH-2", 5, 2, 3, 0, "CANCELLED", null, now, now);
        };
    }
}
