package dev.stockhold.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import dev.stockhold.chaos.ClientLog.Intent;
import dev.stockhold.chaos.ClientLog.ReserveAnswer;
import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Reservation;

/**
 * The reservation clients' view agrees with the final state: one reservation per key whatever was answered, a 409
 * insufficient-stock never hid one, only 5xx/429 answers left none, every reservation holds the lines some client
 * sent (or an edit of them), and the listings never returned an anomaly.
 */
final class ReserveAnswersAgree extends Invariant {

    @Override
    void check() {
        Map<String, Reservation> byKey = new HashMap<>();
        db.reservations().values().forEach(r -> byKey.put(r.key(), r));
        Map<String, List<ReserveAnswer>> answers = new HashMap<>();
        clients.reserveAnswers.forEach(a -> answers.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(a));
        answers.forEach((key, list) -> {
            Reservation reservation = byKey.get(key);
            Set<String> created = new HashSet<>();
            boolean insufficient = false;
            boolean onlyServerErrors = true;
            for (ReserveAnswer a : list) {
                Consumer<String> wrong = what -> violation(Rule.ANSWERS, "key " + key + ": " + what + " " + a);
                if (a.status() == 201) {
                    created.add(a.reservationId());
                } else if (a.status() == 409 && "insufficient-stock".equals(a.problem())) {
                    insufficient = true;
                } else if (a.status() == 500 || (a.status() < 500 && a.status() != 429
                        && !"idempotency-request-in-progress".equals(a.problem()))) {
                    wrong.accept("unexpected answer");
                }
                onlyServerErrors &= a.status() >= 500 || a.status() == 429;
            }
            if (created.size() > 1) {
                violation(Rule.ANSWERS, "key " + key + " answered 201 with different reservations " + created);
            }
            if (!created.isEmpty() && (reservation == null || !created.contains(reservation.id()))) {
                violation(Rule.ANSWERS, "key " + key + " answered 201 " + created + " but the database holds " + reservation);
            }
            if (insufficient && (reservation != null || !created.isEmpty())) {
                violation(Rule.ANSWERS, "key " + key + ": 409 insufficient-stock hid reservation " + reservation);
            }
            if (onlyServerErrors && !clients.unansweredAttempts.contains(key) && reservation != null) {
                violation(Rule.ANSWERS, "key " + key + ": only 5xx/429 answers (nothing happened) yet reservation " + reservation.id());
            }
        });
        byKey.forEach((key, reservation) -> {
            Intent intent = clients.intents.get(key);
            if (intent == null && clients.featureKeys.contains(key)) {
                return; // a channel, backorder or kit request: I8-I10 check what it made
            }
            if (intent == null) {
                violation(Rule.ANSWERS, "reservation under key " + key + " that no client sent");
            } else if (!(intent.partial() ? heldAsAnswered(reservation, intent, clients.partialHeld.get(key))
                    : reservation.lines().equals(intent.lines()))
                    && clients.editAnswers.stream().noneMatch(e -> e.reservationId().equals(reservation.id())
                            && (e.status() == 200 || e.status() == 0 || e.status() >= 500) && e.lines().equals(reservation.lines()))) {
                violation(Rule.ANSWERS, "key " + key + ": reservation lines " + reservation.lines() + " != requested " + intent.lines()
                        + (intent.partial() ? " (partial, answered " + clients.partialHeld.get(key) + ")" : "") + " nor any edit sent");
            }
        });
        clients.listingAnomalies.forEach(anomaly -> violation(Rule.ANSWERS, "listing returned " + anomaly));
    }

    /**
     * A partial request's reservation holds some units, of requested skus only, never more of one than asked, and
     * exactly what its 201 said when one was received.
     */
    private static boolean heldAsAnswered(Reservation reservation, Intent intent, Map<String, Integer> answered) {
        if (answered != null) {
            return reservation.lines().equals(answered);
        }
        return !reservation.lines().isEmpty() && reservation.lines().entrySet().stream()
                .allMatch(line -> line.getValue() <= intent.lines().getOrDefault(line.getKey(), 0));
    }
}
