package dev.stockhold.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.chaos.ClientLog.Intent;
import dev.stockhold.chaos.ClientLog.ReserveAnswer;
import dev.stockhold.chaos.ClientLog.TransitionAnswer;
import dev.stockhold.chaos.InvariantChecker.Event;
import dev.stockhold.chaos.InvariantChecker.IdempotencyRecord;
import dev.stockhold.chaos.InvariantChecker.Reservation;
import dev.stockhold.chaos.InvariantChecker.Snapshot;
import dev.stockhold.support.BrokerQueue.Delivery;

/**
 * The checker can fail: a consistent history passes, and each kind of broken history (built by hand, one defect at a
 * time) is reported under the rule it breaks. Without this, a chaos run that "passes" could be a checker that never
 * looks.
 */
class InvariantCheckerTest {

    /** A small consistent world: sku A set to 10; r1 CONFIRMED (2 of A), r2 HELD (3 of A), key k3 refused 409. */
    private static final class World {
        final Map<String, Long> initial = new HashMap<>(Map.of("A", 10L));
        final Map<String, Long> available = new HashMap<>(Map.of("A", 5L));
        final Map<String, Long> total = new HashMap<>(Map.of("A", 10L));
        final Map<String, Reservation> reservations = new HashMap<>(Map.of(
                "r1", new Reservation("r1", "CONFIRMED", "k1", Map.of("A", 2)),
                "r2", new Reservation("r2", "HELD", "k2", Map.of("A", 3))));
        final List<Event> events = new ArrayList<>(List.of(
                new Event("e1", 1, "r1", "created", "PUBLISHED"),
                new Event("e2", 2, "r2", "created", "PUBLISHED"),
                new Event("e3", 3, "r1", "confirmed", "PUBLISHED")));
        final Map<String, IdempotencyRecord> idempotency = new HashMap<>(Map.of(
                "k1", new IdempotencyRecord("k1", 201, "r1"),
                "k2", new IdempotencyRecord("k2", 201, "r2"),
                "k3", new IdempotencyRecord("k3", 409, null)));
        final List<Delivery> received = new ArrayList<>(List.of(
                delivery("e1", "e1", "r1"),
                delivery("e2", "e2", "r2"),
                delivery("e3", "e3", "r1")));
        final ClientLog clients = new ClientLog();

        World() {
            clients.intents.put("k1", new Intent("k1", "{}", Map.of("A", 2)));
            clients.intents.put("k2", new Intent("k2", "{}", Map.of("A", 3)));
            clients.intents.put("k3", new Intent("k3", "{}", Map.of("A", 9)));
            clients.reserveAnswers.add(new ReserveAnswer("k1", 201, "r1", null, false));
            clients.reserveAnswers.add(new ReserveAnswer("k1", 201, "r1", null, true));
            clients.reserveAnswers.add(new ReserveAnswer("k3", 409, null, "insufficient-stock", false));
            clients.transitionAnswers.add(new TransitionAnswer("r1", "confirm", 200, "CONFIRMED", null));
            clients.transitionAnswers.add(new TransitionAnswer("r1", "cancel", 409, null, "invalid-reservation-state"));
            clients.unansweredAttempts.add("k2");
        }

        InvariantChecker.Result check() {
            return new InvariantChecker().check(new Snapshot(available, total, reservations, events, idempotency), initial,
                    clients, received);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A delivery as the consumer records it: AMQP message_id and the CloudEvent's id, subject and tenant. */
    private static Delivery delivery(String messageId, String eventId, String reservationId) {
        return new Delivery(messageId, "reservation.x", "application/cloudevents+json", 2,
                JSON.createObjectNode().put("id", eventId).put("subject", reservationId).put("tenantid", "t"), null);
    }

    private static InvariantChecker.Result checkWith(Consumer<World> defect) {
        World world = new World();
        defect.accept(world);
        return world.check();
    }

    @Test
    void shouldPassAConsistentHistory() {
        InvariantChecker.Result result = new World().check();

        assertThat(result.violations()).isEmpty();
        assertThat(result.eventsMissing()).isZero();
        assertThat(result.passed()).isTrue();
    }

    @Test
    void shouldReportNegativeStockAndLostUnits() {
        assertThat(checkWith(w -> w.available.put("A", -1L)).violations())
                .anyMatch(v -> v.startsWith("I1:")).anyMatch(v -> v.startsWith("I2:"));
        assertThat(checkWith(w -> w.available.put("A", 4L)).violations()).singleElement()
                .asString().startsWith("I2:").contains("available 4");
    }

    @Test
    void shouldReportASecondReservationForOneKey() {
        InvariantChecker.Result result = checkWith(w -> {
            w.reservations.put("r9", new Reservation("r9", "CANCELLED", "k1", Map.of("A", 2)));
            w.events.add(new Event("e8", 8, "r9", "created", "PUBLISHED"));
            w.events.add(new Event("e9", 9, "r9", "cancelled", "PUBLISHED"));
            w.received.add(delivery("e8", "e8", "r9"));
            w.received.add(delivery("e9", "e9", "r9"));
        });

        assertThat(result.violations()).anyMatch(v -> v.startsWith("I3:") && v.contains("has 2 reservations"));
    }

    @Test
    void shouldReportAMissingOrExtraOutboxEvent() {
        assertThat(checkWith(w -> w.events.removeIf(e -> e.id().equals("e3"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r1"));
        assertThat(checkWith(w -> w.events.add(new Event("e4", 4, "r2", "expired", "PENDING"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r2"));
    }

    @Test
    void shouldAcceptExtendsBetweenCreationAndTheEndButNowhereElse() {
        assertThat(checkWith(w -> w.events.add(1, new Event("x1", 1, "r1", "extended", "PUBLISHED"))).violations())
                .noneMatch(v -> v.startsWith("I4:"));
        assertThat(checkWith(w -> w.events.add(new Event("x2", 4, "r1", "extended", "PUBLISHED"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r1"));
        assertThat(checkWith(w -> w.events.add(0, new Event("x3", 0, "r2", "extended", "PUBLISHED"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r2"));
    }

    @Test
    void shouldReportAListingThatRepeatedOrReorderedItems() {
        assertThat(checkWith(w -> w.clients.listingAnomalies.add("/v1/reservations?limit=25: r1 after r1")).violations())
                .anyMatch(v -> v.contains("listing returned"));
    }

    @Test
    void shouldReportUndeliveredReorderedAndPhantomEvents() {
        InvariantChecker.Result lost = checkWith(w -> w.received.removeIf(r -> r.eventId().equals("e2")));
        assertThat(lost.eventsMissing()).isEqualTo(1);
        assertThat(lost.passed()).isFalse();

        assertThat(checkWith(w -> {
            w.received.clear();
            w.received.add(delivery("e3", "e3", "r1"));
            w.received.add(delivery("e1", "e1", "r1"));
            w.received.add(delivery("e2", "e2", "r2"));
        }).violations()).anyMatch(v -> v.startsWith("I6:") && v.contains("received before"));

        assertThat(checkWith(w -> w.received.add(delivery("m-other", "e1", "r1"))).violations())
                .anyMatch(v -> v.startsWith("I6:") && v.contains("carries event e1"));

        assertThat(checkWith(w -> w.received.add(delivery("x", "x", "r1")))
                .violations()).anyMatch(v -> v.startsWith("I6:") && v.contains("never written"));
    }

    @Test
    void shouldCountRedeliveriesAsDuplicatesNotViolations() {
        InvariantChecker.Result result = checkWith(
                w -> w.received.add(delivery("e1", "e1", "r1")));

        assertThat(result.duplicates()).isEqualTo(1);
        assertThat(result.passed()).isTrue();
    }

    @Test
    void shouldReportAnswersThatDisagreeWithTheFinalState() {
        // a 409 insufficient-stock for a key that does hold a reservation
        assertThat(checkWith(w -> w.clients.reserveAnswers.add(new ReserveAnswer("k2", 409, null, "insufficient-stock",
                false))).violations()).anyMatch(v -> v.startsWith("answers:") && v.contains("hid"));
        // a 201 whose reservation is not in the database
        assertThat(checkWith(w -> w.clients.reserveAnswers.add(new ReserveAnswer("k3", 201, "r7", null, false)))
                .violations()).anyMatch(v -> v.startsWith("answers:") && v.contains("k3"));
        // a confirm answered 200 that did not stick
        assertThat(checkWith(w -> w.clients.transitionAnswers.add(new TransitionAnswer("r2", "confirm", 200, "CONFIRMED",
                null))).violations()).anyMatch(v -> v.startsWith("answers:") && v.contains("r2"));
        // a 503 (nothing happened) for a key that did create a reservation, with no other attempt
        assertThat(checkWith(w -> {
            w.clients.unansweredAttempts.clear();
            w.clients.reserveAnswers.add(new ReserveAnswer("k2", 503, null, "service-unavailable", false));
        }).violations()).anyMatch(v -> v.startsWith("answers:") && v.contains("only 5xx"));
    }
}
