package dev.stockhold.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.chaos.OnItsWay.Promise;
import dev.stockhold.chaos.OnItsWay.Supply;
import dev.stockhold.chaos.Snapshot.Event;
import dev.stockhold.chaos.Snapshot.Reservation;

/**
 * The checks of stock on its way, channels and kits can fail: each passes a consistent history and reports a broken one
 * (built by hand, one defect at a time) under its rule, I8, I9, I10 or I2.
 */
class OnItsWayInvariantsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final Instant SOON = Instant.parse("2030-01-01T00:01:00Z");
    private static final Instant LATER = Instant.parse("2030-01-01T00:02:00Z");

    private final List<Event> events = new ArrayList<>();

    @Test
    void shouldPassAllocationsInReservationOrderAndReportOneOutOfTurn() {
        created("r1", T0, 1, SOON);
        created("r2", T0.plusSeconds(1), 1, SOON);
        allocated("r1");
        allocated("r2");
        assertThat(check(new AllocatedInReservationOrder(), supplies(3))).isEmpty();

        events.clear();
        created("r1", T0, 1, SOON);
        created("r2", T0.plusSeconds(1), 1, SOON);
        allocated("r2"); // served while the older r1 still waits for the same supply
        assertThat(check(new AllocatedInReservationOrder(), supplies(3))).singleElement().asString()
                .startsWith("I8").contains("reservation r2").contains("r1");
    }

    @Test
    void shouldReportPromisesBeyondASupplyAndFollowRepromises() {
        created("r1", T0, 1, SOON);
        created("r2", T0.plusSeconds(1), 1, SOON);
        assertThat(check(new AllocatedInReservationOrder(), supplies(1))).singleElement().asString().contains("promised 2");

        // r1 moves to the later supply when the first ends short; allocating it from there is in turn
        events.clear();
        created("r1", T0, 1, SOON);
        created("r2", T0.plusSeconds(1), 1, LATER);
        event("r1", "repromised", Map.of("repromised", List.of(line(1, LATER))));
        allocated("r1");
        allocated("r2");
        assertThat(check(new AllocatedInReservationOrder(), supplies(3))).isEmpty();
    }

    @Test
    void shouldReportIncomingPromisesAndAwaitingThatDisagreeWithTheirSupply() {
        Map<String, Supply> supplies = Map.of("po1", new Supply("po1", "A@WH-1", SOON, 3, 1, true),
                "po2", new Supply("po2", "A@WH-1", LATER, 2, 0, false));
        OnItsWay good = new OnItsWay(Map.of("A@WH-1", 2L), Map.of("A@WH-1", 2L), supplies,
                List.of(new Promise("r1", "A@WH-1", "po1", 2)), Map.of("r1", 2L));
        assertThat(check(new SupplyKept(), good)).isEmpty();

        OnItsWay broken = new OnItsWay(Map.of("A@WH-1", 3L), Map.of("A@WH-1", 2L), supplies,
                List.of(new Promise("r1", "A@WH-1", "po1", 3), new Promise("r1", "A@WH-2", "po2", 1)), Map.of("r1", 1L));
        assertThat(check(new SupplyKept(), broken)).anyMatch(v -> v.startsWith("I2") && v.contains("incoming 3"))
                .anyMatch(v -> v.contains("promised 3 but may bring only 2"))
                .anyMatch(v -> v.contains("waits at A@WH-2 for supply po2 of A@WH-1"))
                .anyMatch(v -> v.contains("awaits 1 but was promised 3"));
    }

    @Test
    void shouldReportAChannelReservationOutsideItsLocations() {
        Catalogue catalogue = new Catalogue(Map.of("b2b", List.of("WH-2")), Map.of("r1", "b2b", "r2", "b2b"), Map.of(), Map.of());
        Map<String, Reservation> reservations = Map.of("r1", reservation("r1", Map.of("A@WH-2", 1)),
                "r2", reservation("r2", Map.of("A@default", 1)));
        assertThat(check(new ChannelsKeepTheirLocations(), snapshot(reservations, OnItsWay.NONE, catalogue))).singleElement().asString()
                .startsWith("I9").contains("r2").contains("A@default");
    }

    @Test
    void shouldReportKitComponentsThatDidNotMoveTogether() {
        Map<String, Map<String, Integer>> kits = Map.of("KIT", Map.of("A", 1, "B", 2));
        Catalogue.Asked kitLine = new Catalogue.Asked("KIT", 2, Map.of("A@WH-1", 2, "B@WH-1", 4), Map.of("WH-1", 2));
        Catalogue.Asked sharing = new Catalogue.Asked("B", 1, null, null);
        Reservation r1 = new Reservation("r1", "HELD", "k1", Map.of("A", 2, "B", 5), Map.of("A@WH-1", 2, "B@WH-1", 5));
        Catalogue good = new Catalogue(Map.of(), Map.of(), kits, Map.of("r1", List.of(kitLine, sharing)));
        assertThat(check(new KitsHeldTogether(), snapshot(Map.of("r1", r1), OnItsWay.NONE, good))).isEmpty();

        Catalogue.Asked torn = new Catalogue.Asked("KIT", 2, Map.of("A@WH-1", 2, "B@WH-1", 3), Map.of("WH-1", 2));
        Reservation short1 = new Reservation("r1", "HELD", "k1", Map.of("A", 1, "B", 5), Map.of("A@WH-1", 1, "B@WH-1", 5));
        Catalogue broken = new Catalogue(Map.of(), Map.of(), kits, Map.of("r1", List.of(torn, sharing)));
        assertThat(check(new KitsHeldTogether(), snapshot(Map.of("r1", short1), OnItsWay.NONE, broken)))
                .anyMatch(v -> v.startsWith("I10") && v.contains("holds components"))
                .anyMatch(v -> v.contains("holds 1 at A@WH-1 but its kit lines 2"));
    }

    private List<String> check(Invariant invariant, Map<String, Supply> supplies) {
        OnItsWay way = new OnItsWay(Map.of(), Map.of(), supplies, List.of(), Map.of());
        return check(invariant, snapshot(Map.of(), way, Catalogue.NONE));
    }

    private List<String> check(Invariant invariant, OnItsWay way) {
        return check(invariant, snapshot(Map.of("r1", reservation("r1", Map.of())), way, Catalogue.NONE));
    }

    private static List<String> check(Invariant invariant, Snapshot db) {
        Findings found = new Findings();
        invariant.check(new Invariant.Run(db, Map.of(), new ClientLog(), List.of()), found);
        return found.violations;
    }

    private Snapshot snapshot(Map<String, Reservation> reservations, OnItsWay way, Catalogue catalogue) {
        return new Snapshot(Map.of(), reservations, events, Map.of(), null, Map.of()).with(way, catalogue);
    }

    /** Two supplies of A at WH-1: one expected SOON, one LATER, of {@code units} each. */
    private static Map<String, Supply> supplies(long units) {
        return Map.of("po1", new Supply("po1", "A@WH-1", SOON, units, 0, true), "po2", new Supply("po2", "A@WH-1", LATER, units, 0, true));
    }

    private static Reservation reservation(String id, Map<String, Integer> at) {
        return new Reservation(id, "HELD", "k-" + id, Map.of(), at);
    }

    private void created(String id, Instant at, int units, Instant promisedAt) {
        event(id, "created", Map.of("createdAt", at.toString(), "lines", List.of(), "backordered", List.of(line(units, promisedAt))));
    }

    /** Everything the reservation waited for arrived. */
    private void allocated(String id) {
        event(id, "allocated", Map.of("allocated", List.of(Map.of("sku", "A", "quantity", 1, "location", "WH-1"))));
    }

    private static Map<String, Object> line(int units, Instant promisedAt) {
        return Map.of("sku", "A", "quantity", units, "location", "WH-1", "promisedAt", promisedAt.toString());
    }

    private void event(String id, String kind, Map<String, Object> data) {
        JsonNode node = JSON.valueToTree(data);
        events.add(new Event("e" + events.size(), events.size() + 1, id, kind, "PENDING", false, null, node, id, 0));
    }
}
