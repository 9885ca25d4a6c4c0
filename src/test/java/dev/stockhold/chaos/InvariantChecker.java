package dev.stockhold.chaos;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.stockhold.support.BrokerQueue.Delivery;

/**
 * Contract invariants I1-I4, I6 and I7 checked over one consistent {@link Snapshot} of the database and what the consumer
 * received, plus the clients' view: every answer a client did receive agrees with the final state. One class per
 * invariant; a feature that brings an invariant adds its class to {@link #INVARIANTS}.
 */
final class InvariantChecker {

    /** Every invariant a run is checked against, in the order the report lists their findings. */
    static final List<Invariant> INVARIANTS = List.of(new NeverNegative(), new Conservation(), new OneEventPerChange(),
            new AdminWritesAsAnswered(), new OneReservationPerKey(), new DeliveredInOrder(), new ReserveAnswersAgree(),
            new SettlementAnswersAgree(), new EditAnswersAgree(), new TransitionAnswersAgree(), new TransfersConserve(), new SupplyKept(),
            new AllocatedInReservationOrder(), new ChannelsKeepTheirLocations(), new KitsHeldTogether(), new AnswersExpected());

    /** What the checker found. {@code violations} holds one line per broken rule, prefixed with its invariant. */
    record Result(List<String> violations, Map<String, Integer> violationsByRule, List<String> missingEvents,
            int eventsMissing, int duplicates, int delivered, int outboxEvents, Map<String, Integer> reservationsByStatus,
            int sequenceGaps, Map<String, Long> exercised) {
        boolean passed() {
            return violations.isEmpty() && eventsMissing == 0;
        }
    }

    Result check(Snapshot db, Map<String, Long> initialStock, ClientLog clients, List<Delivery> received) {
        Findings found = new Findings();
        Invariant.Run run = new Invariant.Run(db, initialStock, clients, received);
        INVARIANTS.forEach(invariant -> invariant.check(run, found));
        Map<String, Integer> byStatus = new TreeMap<>();
        db.reservations().values().forEach(r -> byStatus.merge(r.status(), 1, Integer::sum));
        int distinct = (int) received.stream().map(Delivery::eventId).distinct().count();
        return new Result(List.copyOf(found.violations), new LinkedHashMap<>(found.byRule), List.copyOf(found.missingEvents),
                found.missingEvents.size(), received.size() - distinct, received.size(), db.events().size(), byStatus, found.sequenceGaps,
                exercised(db));
    }

    /**
     * What the run did of the behaviours I8-I10 check, so a pass means they were tried: backorders promised, allocated on
     * receipt, repromised and left unpromised, reservations that held nothing yet (v2 events), channel reservations,
     * kit reservations and those whose lines share a component.
     */
    static Map<String, Long> exercised(Snapshot db) {
        Map<String, Long> n = new LinkedHashMap<>();
        n.put("backorders promised", db.events().stream().filter(e -> e.kind().equals("created") && e.data() != null
                && e.data().hasNonNull("backordered")).count());
        for (String kind : List.of("allocated", "repromised", "unpromised")) {
            n.put("reservation." + kind + " events", db.events().stream().filter(e -> !e.stock() && e.kind().equals(kind)).count());
        }
        n.put("reservations created holding nothing (v2)", db.events().stream().filter(e -> e.kind().equals("created")
                && e.data() != null && e.data().path("lines").isEmpty()).count());
        n.put("channel reservations", (long) db.catalogue().channelOf().size());
        n.put("kit reservations", (long) db.catalogue().kitReservations().size());
        n.put("kit reservations with lines sharing a component", db.catalogue().kitReservations().values().stream()
                .filter(InvariantChecker::sharesAComponent).count());
        return n;
    }

    private static boolean sharesAComponent(List<Catalogue.Asked> lines) {
        Map<String, Integer> bySku = new java.util.HashMap<>();
        for (Catalogue.Asked line : lines) {
            if (line.components() == null) {
                bySku.merge(line.sku(), 1, Integer::sum);
            } else {
                line.components().keySet().stream().map(at -> at.substring(0, at.indexOf('@'))).distinct()
                        .forEach(sku -> bySku.merge(sku, 1, Integer::sum));
            }
        }
        return bySku.values().stream().anyMatch(count -> count > 1);
    }
}
