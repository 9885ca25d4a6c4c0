package dev.stockhold.chaos;

import java.util.function.Predicate;

import dev.stockhold.chaos.ClientLog.TransitionAnswer;
import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Reservation;
import dev.stockhold.reservation.ReservationStatus;

/**
 * Confirms, cancels and extends as the clients saw them: a 200 reached the status the final state shows, a 409
 * invalid-reservation-state (or hold-limit-reached) came from a reservation that never reached it.
 */
final class TransitionAnswersAgree extends Invariant {

    @Override
    void check() {
        for (TransitionAnswer t : clients.transitionAnswers) {
            Reservation r = db.reservations().get(t.reservationId());
            if (t.action().equals("extend")) {
                boolean agrees = switch (t.status()) {
                    case 200 -> "HELD".equals(t.resultStatus()) && db.events().stream()
                            .anyMatch(e -> e.aggregateId().equals(t.reservationId()) && e.kind().equals("extended"));
                    case 409 -> "invalid-reservation-state".equals(t.problem()) || "hold-limit-reached".equals(t.problem());
                    case 429, 502, 503, 504 -> true;
                    default -> false;
                };
                if (!agrees) {
                    violation(Rule.ANSWERS,
                            "extend of " + t.reservationId() + " answered " + t.status() + " " + t.resultStatus() + " " + t.problem());
                }
                continue;
            }
            boolean confirm = t.action().equals("confirm");
            String finalStatus = r == null ? null : r.status();
            // a deferred reservation goes on from CONFIRMED by fulfilments and releases: a repeated confirm answers that
            // the lifecycle table: the statuses in which a confirm (or cancel) has been done
            ReservationStatus.Action action = confirm ? ReservationStatus.Action.CONFIRM : ReservationStatus.Action.CANCEL;
            Predicate<String> reached = status -> status != null && action.done(ReservationStatus.valueOf(status));
            boolean agrees = switch (t.status()) {
                case 200 -> reached.test(t.resultStatus()) && reached.test(finalStatus);
                case 409 -> "invalid-reservation-state".equals(t.problem()) && !reached.test(finalStatus);
                case 429, 502, 503, 504 -> true;
                default -> false;
            };
            if (!agrees) {
                violation(Rule.ANSWERS, t.action() + " of " + t.reservationId() + " answered " + t.status() + " " + t.resultStatus()
                        + " " + t.problem() + " but final status is " + finalStatus);
            }
        }
    }
}
