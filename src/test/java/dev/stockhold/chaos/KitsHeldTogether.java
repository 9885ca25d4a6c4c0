package dev.stockhold.chaos;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.stockhold.chaos.Findings.Rule;

/**
 * I10: every kit line holds each of its kit's components, kit units times the component's quantity, at every location
 * it took kit units at, and nothing else; the reservation's rows hold at least what its kit lines hold there, and per
 * sku no more than its kit lines and its own lines of that sku asked for. Lines sharing a component add up.
 */
final class KitsHeldTogether extends Invariant {

    @Override
    void check() {
        Catalogue catalogue = db.catalogue();
        catalogue.kitReservations().forEach((id, lines) -> {
            Snapshot.Reservation r = db.reservations().get(id);
            if (r == null) {
                return;
            }
            Map<String, Long> ofKits = new HashMap<>();
            Map<String, Long> bySku = new HashMap<>();
            for (Catalogue.Asked line : lines) {
                if (line.components() == null) {
                    bySku.merge(line.sku(), (long) line.quantity(), Long::sum);
                    continue;
                }
                kitLine(id, line, catalogue.kits().get(line.sku()));
                line.components().forEach((at, units) -> {
                    ofKits.merge(at, (long) units, Long::sum);
                    bySku.merge(at.substring(0, at.indexOf('@')), (long) units, Long::sum);
                });
            }
            ofKits.forEach((at, units) -> {
                if (r.at().getOrDefault(at, 0) < units) {
                    violation(Rule.I10, "reservation " + id + " holds " + r.at().getOrDefault(at, 0) + " at " + at + " but its kit lines "
                            + units);
                }
            });
            r.lines().forEach((sku, units) -> {
                if (units > bySku.getOrDefault(sku, 0L)) {
                    violation(Rule.I10, "reservation " + id + " holds " + units + " of " + sku + ", more than its lines asked for: "
                            + bySku.getOrDefault(sku, 0L));
                }
            });
        });
    }

    /** One kit line: components exactly kit units times the definition at each of its locations, no more kit units than asked. */
    private void kitLine(String id, Catalogue.Asked line, Map<String, Integer> kit) {
        if (kit == null) {
            violation(Rule.I10, "reservation " + id + " has a kit line of " + line.sku() + ", which is no kit");
            return;
        }
        long units = line.units().values().stream().mapToLong(Integer::longValue).sum();
        if (units > line.quantity()) {
            violation(Rule.I10,
                    "reservation " + id + " holds " + units + " units of kit " + line.sku() + " for " + line.quantity() + " asked");
        }
        Map<String, Integer> expected = new HashMap<>();
        line.units().forEach((location, n) -> kit.forEach((sku, per) -> expected.put(sku + "@" + location, n * per)));
        if (!expected.equals(line.components())) {
            violation(Rule.I10, "reservation " + id + " kit line " + line.sku() + " " + line.units() + " holds components "
                    + line.components() + ", not " + expected + " (" + List.copyOf(kit.entrySet()) + " per kit)");
        }
    }
}
