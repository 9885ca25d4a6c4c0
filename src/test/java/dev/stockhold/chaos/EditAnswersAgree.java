package dev.stockhold.chaos;

import dev.stockhold.chaos.Findings.Rule;

/** Edits as the clients saw them: a 200 left an updated event, a refusal was for a reason an edit may be refused for. */
final class EditAnswersAgree extends Invariant {

    @Override
    void check() {
        for (ClientLog.EditAnswer a : clients.editAnswers) {
            boolean updated = db.events().stream().anyMatch(e -> e.aggregateId().equals(a.reservationId()) && e.kind().equals("updated"));
            boolean agrees = switch (a.status()) {
                case 200 -> updated;
                case 409 -> "invalid-reservation-state".equals(a.problem()) || "insufficient-stock".equals(a.problem())
                        || "idempotency-request-in-progress".equals(a.problem());
                case 412 -> "precondition-failed".equals(a.problem());
                case 0, 429, 502, 503, 504 -> true;
                default -> false;
            };
            if (!agrees) {
                violation(Rule.ANSWERS, "edit " + a + " (updated events: " + updated + ")");
            }
        }
    }
}
