package dev.stockhold.chaos;

import java.util.HashMap;
import java.util.Map;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Reservation;

/**
 * Fulfilments and releases as the clients saw them: a 200 wrote exactly one ledger entry under its key, a refusal
 * (over-fulfilment, or a reservation that was not a confirmed deferred one) none, an unknown outcome at most one;
 * and the reservation's lines account for every unit answered 200.
 */
final class SettlementAnswersAgree extends Invariant {

    @Override
    void check() {
        Map<String, Integer> answeredUnits = new HashMap<>();
        for (ClientLog.SettleAnswer a : clients.settleAnswers) {
            Reservation r = db.reservations().get(a.reservationId());
            int entries = db.ledger() == null ? -1 : db.entriesByKey().getOrDefault(a.key(), 0);
            boolean agrees = switch (a.status()) {
                case 200 -> (entries == 1 || entries == -1) && r != null && r.deferred() && r.confirmed();
                case 409 -> ("over-fulfilment".equals(a.problem()) || "invalid-reservation-state".equals(a.problem())) && entries <= 0;
                case 0, 429, 502, 503, 504 -> entries <= 1;
                default -> false;
            };
            if (!agrees) {
                violation(Rule.ANSWERS, a.action() + " " + a + " has " + entries + " ledger entries; reservation " + r);
            }
            if (a.status() == 200) {
                answeredUnits.merge(a.reservationId() + " " + a.action(), 1, Integer::sum);
            }
        }
        answeredUnits.forEach((what, units) -> {
            String[] parts = what.split(" ");
            Reservation r = db.reservations().get(parts[0]);
            int recorded = r == null ? 0
                    : (parts[1].equals("fulfil") ? r.fulfilled() : r.released()).values().stream().mapToInt(Integer::intValue).sum();
            if (recorded < units) {
                violation(Rule.ANSWERS,
                        "reservation " + parts[0] + ": " + units + " units answered " + parts[1] + " but its lines record " + recorded);
            }
        });
    }
}
