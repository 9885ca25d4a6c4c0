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
            int sequenceGaps) {
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
                found.missingEvents.size(), received.size() - distinct, received.size(), db.events().size(), byStatus, found.sequenceGaps);
    }
}
