package dev.stockhold.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.IdempotencyRecord;

/** I3: at most one reservation per (tenant, key), and the key's stored 201 names it. */
final class OneReservationPerKey extends Invariant {

    @Override
    void check() {
        Map<String, List<String>> byKey = new HashMap<>();
        db.reservations().values().forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.id()));
        byKey.forEach((key, ids) -> {
            if (ids.size() > 1) {
                violation(Rule.I3, "key " + key + " has " + ids.size() + " reservations " + ids);
            }
            IdempotencyRecord stored = db.idempotency().get(key);
            if (stored == null || stored.status() != 201 || !ids.contains(stored.reservationId())) {
                violation(Rule.I3, "key " + key + " has reservation " + ids + " but stored outcome " + stored);
            }
        });
        // a 201 that names no reservation is another create's (a transfer's shipment); every reservation's own key is
        // checked above, from the reservation
        db.idempotency().values().stream()
                .filter(r -> r.status() == 201 && r.reservationId() != null && !db.reservations().containsKey(r.reservationId()))
                .forEach(r -> violation(Rule.I3, "stored 201 for key " + r.key() + " names no reservation"));
    }
}
