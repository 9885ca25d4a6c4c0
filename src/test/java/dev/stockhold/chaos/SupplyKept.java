package dev.stockhold.chaos;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.OnItsWay.Promise;
import dev.stockhold.chaos.OnItsWay.Supply;

/**
 * I2 with stock on its way, from the rows after the run: a record's incoming is what its open purchase orders still
 * expect; no supply has promised more than it may still bring, and a supply that ended has promised nothing; a promise
 * waits at its supply's own sku and location, for a HELD reservation; and a reservation awaits exactly the units it was
 * promised (I8's "never beyond supply" at the end; {@link AllocatedInReservationOrder} checks it at every step).
 */
final class SupplyKept extends Invariant {

    @Override
    void check() {
        OnItsWay way = db.onItsWay();
        agree(Rule.I2, way.incoming(), "incoming", way.openOrders(), "open purchase orders'");
        Map<String, Long> promisedBy = new HashMap<>();
        Map<String, Long> awaitedBy = new HashMap<>();
        for (Promise p : way.promises()) {
            Snapshot.Reservation r = db.reservations().get(p.reservation());
            if (r == null || !r.status().equals("HELD")) {
                violation(Rule.I8, "a promise of " + p.quantity() + " for reservation " + p.reservation() + " which is "
                        + (r == null ? "missing" : r.status()));
            }
            if (p.supply().equals(OnItsWay.NO_SUPPLY)) {
                continue;
            }
            Supply s = way.supplies().get(p.supply());
            if (s == null || !s.subject().equals(p.subject())) {
                violation(Rule.I8, "reservation " + p.reservation() + " waits at " + p.subject() + " for supply " + p.supply() + " of "
                        + (s == null ? "nothing" : s.subject()));
                continue;
            }
            promisedBy.merge(s.id(), p.quantity(), Long::sum);
            awaitedBy.merge(p.reservation(), p.quantity(), Long::sum);
        }
        promisedBy.forEach((id, promised) -> {
            Supply s = way.supplies().get(id);
            if (promised > s.remaining()) {
                violation(Rule.I8, "supply " + id + " to " + s.subject() + " promised " + promised + " but may bring only "
                        + s.remaining() + (s.open() ? "" : " (it ended)"));
            }
        });
        Set<String> reservations = new TreeSet<>(awaitedBy.keySet());
        reservations.addAll(way.awaiting().keySet());
        for (String id : reservations) {
            if (!awaitedBy.getOrDefault(id, 0L).equals(way.awaiting().getOrDefault(id, 0L))) {
                violation(Rule.I8, "reservation " + id + " awaits " + way.awaiting().getOrDefault(id, 0L) + " but was promised "
                        + awaitedBy.getOrDefault(id, 0L));
            }
        }
    }
}
