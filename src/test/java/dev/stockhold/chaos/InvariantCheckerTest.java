package dev.stockhold.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.stockhold.chaos.ClientLog.Intent;
import dev.stockhold.chaos.ClientLog.ReserveAnswer;
import dev.stockhold.chaos.ClientLog.TransitionAnswer;
import dev.stockhold.chaos.Snapshot.Event;
import dev.stockhold.chaos.Snapshot.IdempotencyRecord;
import dev.stockhold.chaos.Snapshot.Reservation;
import dev.stockhold.chaos.Snapshot.StockRecord;
import dev.stockhold.support.BrokerQueue.Delivery;

/**
 * The checker can fail: a consistent history passes, and each kind of broken history (built by hand, one defect at a
 * time) is reported under the rule it breaks. Without this, a chaos run that "passes" could be a checker that never
 * looks.
 */
class InvariantCheckerTest {

    /**
     * A small consistent world: sku A set to 10 at default (stock.changed, replenished); r1 CONFIRMED (2 of A), r2 HELD
     * (3 of A), key k3 refused 409: A@default has on hand 8, held 3.
     */
    private static final class World {
        final Map<String, Long> initial = new HashMap<>(Map.of("A", 10L));
        final Map<String, StockRecord> records = new HashMap<>(Map.of("A@default", new StockRecord("A@default", 8, 3, 1)));
        final Map<String, Reservation> reservations = new HashMap<>(Map.of(
                "r1", new Reservation("r1", "CONFIRMED", "k1", Map.of("A", 2), Map.of("A@default", 2)),
                "r2", new Reservation("r2", "HELD", "k2", Map.of("A", 3), Map.of("A@default", 3))));
        final List<Event> events = new ArrayList<>(List.of(
                changed("s1", -1, 10, 10, 1),
                stock("s2", 0, "replenished"),
                event("e1", 1, "r1", "created"),
                event("e2", 2, "r2", "created"),
                event("e3", 3, "r1", "confirmed")));
        final Map<String, IdempotencyRecord> idempotency = new HashMap<>(Map.of(
                "k1", new IdempotencyRecord("k1", 201, "r1"),
                "k2", new IdempotencyRecord("k2", 201, "r2"),
                "k3", new IdempotencyRecord("k3", 409, null)));
        final List<Delivery> received = new ArrayList<>(List.of(
                delivery("s1", "s1", "A@default"),
                delivery("s2", "s2", "A@default"),
                delivery("e1", "e1", "r1"),
                delivery("e2", "e2", "r2"),
                delivery("e3", "e3", "r1")));
        final ClientLog clients = new ClientLog();
        /** Null: the ledger is not checked (as when the snapshot did not read it). */
        Map<String, Snapshot.Ledger> ledger;
        final Map<String, Integer> entriesByKey = new HashMap<>();

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

        /** Events written without a sequence are numbered per aggregate in write order, and their deliveries carry it. */
        InvariantChecker.Result check() {
            Map<String, Long> last = new HashMap<>();
            Map<String, Event> byId = new HashMap<>();
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                if (e.sequence() == 0) {
                    e = new Event(e.id(), e.seq(), e.aggregateId(), e.kind(), e.status(), e.stock(), e.subject(), e.data(),
                            e.partitionKey(),
                            last.merge(e.partitionKey(), 1L, Long::sum));
                    events.set(i, e);
                } else {
                    last.put(e.partitionKey(), e.sequence());
                }
                byId.put(e.id(), e);
            }
            for (Delivery d : received) {
                Event e = byId.get(d.eventId());
                if (e != null && !d.event().has("sequence")) {
                    ((ObjectNode) d.event()).put("sequence", String.format("%019d", e.sequence())).put("partitionkey", e.partitionKey());
                }
            }
            return new InvariantChecker().check(new Snapshot(records, reservations, events, idempotency, ledger, entriesByKey), initial,
                    clients, received);
        }
    }

    private static Event event(String id, long seq, String reservation, String kind) {
        return new Event(id, seq, reservation, kind, "PUBLISHED", false, null, null, reservation, 0);
    }

    private static Event stock(String id, long seq, String kind) {
        return new Event(id, seq, "agg-A", kind, "PUBLISHED", true, "A@default", JSON.createObjectNode(), "t/A/default", 0);
    }

    private static Event changed(String id, long seq, long delta, long onHand, long version) {
        return new Event(id, seq, "agg-A", "changed", "PUBLISHED", true, "A@default",
                JSON.createObjectNode().put("delta", delta).put("onHand", onHand).put("version", version), "t/A/default", 0);
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

    /**
     * The world plus r3, made with deferred fulfilment: 4 of A confirmed (committed), then 1 fulfilled (on hand 7) and
     * 1 released, so 2 stay committed; its fulfilment answered 200 under key f1 with one ledger entry.
     */
    private static void deferredReservation(World w) {
        w.reservations.put("r3", new Reservation("r3", "PARTIALLY_FULFILLED", "k4", Map.of("A", 4), Map.of("A@default", 4), true,
                Map.of("A@default", 1), Map.of("A@default", 1)));
        w.records.put("A@default", new StockRecord("A@default", 7, 3, 1, 2, 0));
        w.idempotency.put("k4", new IdempotencyRecord("k4", 201, "r3"));
        w.clients.intents.put("k4", new Intent("k4", "{}", Map.of("A", 4), true, null));
        w.events.add(event("e4", 4, "r3", "created"));
        w.events.add(event("e5", 5, "r3", "confirmed"));
        w.events.add(event("e6", 6, "r3", "fulfilled"));
        w.events.add(new Event("s3", 7, "agg-A", "changed", "PUBLISHED", true, "A@default",
                JSON.createObjectNode().put("delta", -1).put("onHand", 7).put("version", 1).put("kind", "fulfil"), "t/A/default", 0));
        w.events.add(event("e7", 8, "r3", "released"));
        for (String id : List.of("e4", "e5", "e6", "e7")) {
            w.received.add(delivery(id, id, "r3"));
        }
        w.received.add(delivery("s3", "s3", "A@default"));
        w.clients.settleAnswers.add(new ClientLog.SettleAnswer("f1", "r3", "fulfil", "A", 200, null));
        w.entriesByKey.put("f1", 1);
    }

    /** k2 becomes a partial request for 5 of A and 2 of B that got 3 of A: its 201 said so. */
    private static void partialRequest(World w) {
        w.clients.intents.put("k2", new Intent("k2", "{}", Map.of("A", 5, "B", 2), false, "partial"));
        w.clients.partialHeld.put("k2", Map.of("A", 3));
        w.clients.reserveAnswers.add(new ReserveAnswer("k2", 201, "r2", null, false));
    }

    /** k2's answer was lost: the checker knows only what was asked. */
    private static void unanswered(World w) {
        w.clients.partialHeld.remove("k2");
        w.clients.reserveAnswers.removeIf(a -> a.key().equals("k2"));
    }

    @Test
    void shouldAcceptAPartialReservationHoldingWhatItsAnswerSaid() {
        assertThat(checkWith(InvariantCheckerTest::partialRequest).violations()).isEmpty();
        assertThat(checkWith(w -> {
            partialRequest(w);
            unanswered(w);
        }).violations()).as("no answer received: at most what was asked").isEmpty();
    }

    @Test
    void shouldCatchAPartialReservationHoldingOtherThanItsAnswerOrMoreThanAsked() {
        assertThat(checkWith(w -> {
            partialRequest(w);
            w.clients.partialHeld.put("k2", Map.of("A", 2));
        }).violations()).anyMatch(v -> v.contains("key k2") && v.contains("!= requested"));
        assertThat(checkWith(w -> {
            partialRequest(w);
            unanswered(w);
            w.clients.intents.put("k2", new Intent("k2", "{}", Map.of("A", 2), false, "partial"));
        }).violations()).anyMatch(v -> v.contains("key k2"));
    }

    @Test
    void shouldAcceptFulfilmentsAndReleasesTheLinesAccountFor() {
        assertThat(checkWith(InvariantCheckerTest::deferredReservation).violations()).isEmpty();
    }

    @Test
    void shouldCatchCommittedUnitsNoOpenLineAccountsFor() {
        assertThat(checkWith(w -> {
            deferredReservation(w);
            w.records.put("A@default", new StockRecord("A@default", 7, 3, 1, 3, 0));
        }).violations()).anyMatch(v -> v.startsWith("I2") && v.contains("committed 3 != open deferred lines 2"));
    }

    @Test
    void shouldCatchAFulfilmentAnsweredWithoutItsLedgerEntryOrTwice() {
        assertThat(checkWith(w -> {
            deferredReservation(w);
            w.entriesByKey.put("f1", 2);
            w.ledger = new HashMap<>();
        }).violations()).anyMatch(v -> v.contains("f1") && v.contains("2 ledger entries"));
        assertThat(checkWith(w -> {
            deferredReservation(w);
            w.reservations.put("r3", new Reservation("r3", "FULFILLED", "k4", Map.of("A", 4), Map.of("A@default", 4), true,
                    Map.of("A@default", 0), Map.of("A@default", 4)));
            w.records.put("A@default", new StockRecord("A@default", 8, 3, 1, 0, 0));
        }).violations()).anyMatch(v -> v.contains("units answered fulfil but its lines record 0"));
    }

    @Test
    void shouldCatchALedgerThatDoesNotSumToTheRecord() {
        InvariantChecker.Result result = checkWith(
                w -> w.ledger = new HashMap<>(Map.of("A@default", new Snapshot.Ledger(9, 0, 2, 2))));
        assertThat(result.violations()).anyMatch(v -> v.startsWith("I2") && v.contains("ledger"));
    }

    @Test
    void shouldAcceptAnEditedReservationAndCatchLinesNoClientSent() {
        Consumer<World> edited = w -> {
            w.reservations.put("r2", new Reservation("r2", "HELD", "k2", Map.of("A", 2), Map.of("A@default", 2)));
            w.records.put("A@default", new StockRecord("A@default", 8, 2, 1));
            w.events.add(event("e4", 4, "r2", "updated"));
            w.received.add(delivery("e4", "e4", "r2"));
            w.clients.editAnswers.add(new ClientLog.EditAnswer("x1", "r2", Map.of("A", 2), 200, null));
            w.clients.reserveAnswers.add(new ReserveAnswer("k2", 201, "r2", null, false));
        };
        assertThat(checkWith(edited).violations()).isEmpty();
        assertThat(checkWith(edited.andThen(w -> w.clients.editAnswers.clear())).violations())
                .anyMatch(v -> v.contains("nor any edit sent"));
        assertThat(checkWith(edited.andThen(w -> w.clients.editAnswers.add(new ClientLog.EditAnswer("x2", "r2", Map.of("A", 3), 400,
                "validation-failed")))).violations()).anyMatch(v -> v.contains("edit EditAnswer[key=x2"));
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
        assertThat(checkWith(w -> w.records.put("A@default", new StockRecord("A@default", 8, 9, 1))).violations())
                .anyMatch(v -> v.startsWith("I1:")).anyMatch(v -> v.startsWith("I2:") && v.contains("held 9"));
        assertThat(checkWith(w -> w.records.put("A@default", new StockRecord("A@default", 7, 3, 1))).violations()).singleElement()
                .asString().startsWith("I2:").contains("on hand 7");
    }

    @Test
    void shouldReportMissingStockEventsAndCrossingsOutOfTurn() {
        assertThat(checkWith(w -> w.records.put("A@default", new StockRecord("A@default", 8, 3, 2))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("versions [1] for version 2"));
        assertThat(checkWith(w -> {
            w.events.add(2, stock("s3", 0, "replenished"));
            w.received.add(delivery("s3", "s3", "A@default"));
        }).violations()).anyMatch(v -> v.startsWith("I4:") && v.contains("out of turn"));
        assertThat(checkWith(w -> w.events.removeIf(e -> e.id().equals("s2"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("available 5"));
    }

    @Test
    void shouldReportAdminWritesThatDidNotLandAsAnswered() {
        assertThat(checkWith(w -> {
            w.clients.adjustments.put("a1", new ClientLog.Adjustment("a1", "A", "default", -1));
            w.clients.adjustAnswers.add(new ClientLog.AdjustAnswer("a1", 200, 2, null, false));
            w.idempotency.put("a1", new IdempotencyRecord("a1", 200, null));
        }).violations()).anyMatch(v -> v.startsWith("I7:") && v.contains("a1"));
        assertThat(checkWith(w -> {
            w.clients.setAnswers.add(new ClientLog.SetAnswer("A", "default", "\"1\"", 10, 200, 1, null));
            w.clients.setAnswers.add(new ClientLog.SetAnswer("A", "default", "\"1\"", 10, 200, 1, null));
        }).violations()).anyMatch(v -> v.startsWith("I7:") && v.contains("same If-Match"));
    }

    /**
     * A compare-and-set whose outcome the client cannot know (no answer, or 503 outcome unknown) may have won: its
     * stock.changed event is allowed, but only up to the number of such sets.
     */
    @Test
    void shouldAllowAStockEventPerSetOfUnknownOutcomeAndNoMore() {
        Consumer<World> setApplied = w -> {
            w.records.put("A@default", new StockRecord("A@default", 9, 3, 2));
            w.events.add(changed("s3", -1, 1, 9, 2));
            w.received.add(delivery("s3", "s3", "A@default"));
        };
        assertThat(checkWith(w -> {
            setApplied.accept(w);
            w.clients.unknownSets.increment();
        }).violations()).isEmpty();
        assertThat(checkWith(setApplied).violations()).singleElement().asString().startsWith("I7:")
                .contains("up to 0 sets of unknown outcome");
    }

    /** A batch is all or nothing, a count writes one entry per record it says it changed, and each is answered as stored. */
    @Test
    void shouldReportBatchesAndCountsThatDidNotLandAsAnswered() {
        ClientLog.Batch batch = new ClientLog.Batch("b1",
                List.of(new ClientLog.Adjustment("b1", "A", "default", 1), new ClientLog.Adjustment("b1", "B", "default", 2)));
        assertThat(checkWith(w -> {
            w.ledger = new HashMap<>(Map.of("A@default", new Snapshot.Ledger(8, 0, 1, 1)));
            w.clients.batches.put("b1", batch);
            w.clients.batchAnswers.add(new ClientLog.BatchAnswer("b1", 200, null, false));
            w.idempotency.put("b1", new IdempotencyRecord("b1", 200, null));
            w.entriesByKey.put("b1", 1);
        }).violations()).anyMatch(v -> v.startsWith("I7:") && v.contains("batch") && v.contains("1 ledger entries"));
        assertThat(checkWith(w -> {
            w.ledger = new HashMap<>(Map.of("A@default", new Snapshot.Ledger(8, 0, 1, 1)));
            w.clients.batches.put("b1", batch);
            w.clients.batchAnswers.add(new ClientLog.BatchAnswer("b1", 409, "stock-below-held", false));
        }).violations()).anyMatch(v -> v.startsWith("I7:") && v.contains("stored null"));
        assertThat(checkWith(w -> {
            w.ledger = new HashMap<>(Map.of("A@default", new Snapshot.Ledger(8, 0, 1, 1)));
            w.clients.counts.put("c1", new ClientLog.Count("c1", "default", "{}", List.of("A")));
            w.clients.countAnswers.add(new ClientLog.CountAnswer("c1", 200, 1, null, false));
            w.idempotency.put("c1", new IdempotencyRecord("c1", 200, null));
        }).violations()).anyMatch(v -> v.startsWith("I7:") && v.contains("count") && v.contains("0 ledger entries"));
        assertThat(checkWith(w -> {
            w.ledger = new HashMap<>(Map.of("A@default", new Snapshot.Ledger(8, 0, 1, 1)));
            w.clients.counts.put("c2", new ClientLog.Count("c2", "default", "{}", List.of("A")));
            w.entriesByKey.put("c2", 1);
        }).violations()).anyMatch(v -> v.startsWith("I7:") && v.contains("count c2"));
    }

    @Test
    void shouldReportASecondReservationForOneKey() {
        InvariantChecker.Result result = checkWith(w -> {
            w.reservations.put("r9", new Reservation("r9", "CANCELLED", "k1", Map.of("A", 2), Map.of("A@default", 2)));
            w.events.add(event("e8", 8, "r9", "created"));
            w.events.add(event("e9", 9, "r9", "cancelled"));
            w.received.add(delivery("e8", "e8", "r9"));
            w.received.add(delivery("e9", "e9", "r9"));
        });

        assertThat(result.violations()).anyMatch(v -> v.startsWith("I3:") && v.contains("has 2 reservations"));
    }

    @Test
    void shouldReportAMissingOrExtraOutboxEvent() {
        assertThat(checkWith(w -> w.events.removeIf(e -> e.id().equals("e3"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r1"));
        assertThat(checkWith(w -> w.events.add(new Event("e4", 4, "r2", "expired", "PENDING", false, null, null, "r2", 0))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r2"));
    }

    @Test
    void shouldAcceptExtendsBetweenCreationAndTheEndButNowhereElse() {
        assertThat(checkWith(w -> w.events.add(3, event("x1", 1, "r1", "extended"))).violations())
                .noneMatch(v -> v.startsWith("I4:"));
        assertThat(checkWith(w -> w.events.add(event("x2", 4, "r1", "extended"))).violations())
                .anyMatch(v -> v.startsWith("I4:") && v.contains("r1"));
        assertThat(checkWith(w -> w.events.add(2, event("x3", 0, "r2", "extended"))).violations())
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
    void shouldReportSequenceGapsAndRenumberedRedeliveries() {
        InvariantChecker.Result clean = new World().check();
        assertThat(clean.sequenceGaps()).isZero();

        InvariantChecker.Result skipped = checkWith(w -> w.events.set(4, new Event("e3", 3, "r1", "confirmed", "PUBLISHED", false, null,
                null, "r1", 3)));
        assertThat(skipped.violations()).anyMatch(v -> v.startsWith("I4:") && v.contains("aggregate r1") && v.contains("[1, 3]"));
        assertThat(skipped.violations()).anyMatch(v -> v.startsWith("I6:") && v.contains("sequence gaps, [2]"));
        assertThat(skipped.sequenceGaps()).isEqualTo(1);

        InvariantChecker.Result renumbered = checkWith(w -> {
            Delivery again = delivery("e1", "e1", "r1");
            ((ObjectNode) again.event()).put("sequence", String.format("%019d", 7)).put("partitionkey", "r1");
            w.received.add(again);
        });
        assertThat(renumbered.violations())
                .anyMatch(v -> v.startsWith("I6:") && v.contains("event e1 delivered with sequence 1 and then 7"));
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
