package dev.stockhold.chaos;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.OnItsWay.Supply;
import dev.stockhold.chaos.Snapshot.Event;

/**
 * I8 followed through the events in write order: what each reservation waits for, per supply (named by its record and
 * expected date, which the run's clients make unique), from its created event's promises, as allocations, repromises and
 * unpromises change it, until it ends. At every allocation from a supply, no reservation made earlier (by reservation
 * time, then id, the order receipts serve in) may still wait for that supply; and at every step what a supply has
 * promised plus what it has allocated never exceeds its units. A reservation whose waits cannot be told apart (two
 * supplies of one record when a repromise names neither) is followed no further.
 */
final class AllocatedInReservationOrder extends Invariant {

    /** Reservation time, then id: the order a supply's waiting lines are served in. */
    private record Turn(Instant at, String id) {
    }

    private static final Comparator<Turn> ORDER = Comparator.comparing(Turn::at).thenComparing(Turn::id);

    private final Map<String, Map<String, Long>> waits = new HashMap<>();
    private final Map<String, Turn> turns = new HashMap<>();
    private final Map<String, Long> allocated = new HashMap<>();
    private final Set<String> lost = new HashSet<>();
    private Map<String, Supply> byKey;

    @Override
    void check() {
        waits.clear();
        turns.clear();
        allocated.clear();
        lost.clear();
        byKey = new HashMap<>();
        Set<String> shared = new HashSet<>();
        db.onItsWay().supplies().values().forEach(s -> {
            if (byKey.putIfAbsent(key(s.subject(), s.expectedAt()), s) != null) {
                shared.add(key(s.subject(), s.expectedAt()));
            }
        });
        byKey.keySet().removeAll(shared);
        for (Event e : db.events()) {
            if (e.stock() || e.data() == null) {
                continue;
            }
            String id = e.aggregateId();
            switch (e.kind()) {
                case "created" -> created(id, e.data());
                case "allocated" -> allocated(id, e.data());
                case "repromised" -> moved(id, e.data().path("repromised"), true);
                case "unpromised" -> moved(id, e.data().path("unpromised"), false);
                case "cancelled", "expired", "confirmed" -> waits.remove(id);
                default -> {
                }
            }
        }
    }

    private void created(String id, JsonNode data) {
        turns.put(id, new Turn(Instant.parse(data.path("createdAt").asText()), id));
        if (!data.hasNonNull("backordered")) {
            return;
        }
        Map<String, Long> promised = waitsOf(data.path("backordered"));
        waits.put(id, promised);
        promised.keySet().forEach(this::withinSupply);
    }

    private void allocated(String id, JsonNode data) {
        Map<String, Long> before = waits.get(id);
        if (before == null) {
            if (!lost.contains(id)) {
                violation(Rule.I8, "reservation " + id + " was allocated units it was never promised");
            }
            return;
        }
        Map<String, Long> after = waitsOf(data.path("backordered"));
        Turn turn = turns.get(id);
        before.forEach((supply, units) -> {
            long taken = units - after.getOrDefault(supply, 0L);
            if (taken <= 0) {
                return;
            }
            allocated.merge(supply, taken, Long::sum);
            waits.forEach((other, waiting) -> {
                if (!other.equals(id) && waiting.getOrDefault(supply, 0L) > 0 && ORDER.compare(turns.get(other), turn) < 0) {
                    violation(Rule.I8, "reservation " + id + " (" + turn.at() + ") was allocated " + taken + " of supply " + supply
                            + " while reservation " + other + " (" + turns.get(other).at() + "), made earlier, still waited for it");
                }
            });
        });
        waits.put(id, after);
    }

    /** Units a supply that ended short moved to another supply ({@code repromised}) or to none. */
    private void moved(String id, JsonNode lines, boolean repromised) {
        Map<String, Long> current = waits.get(id);
        if (current == null) {
            return;
        }
        for (JsonNode line : lines) {
            String subject = line.path("sku").asText() + "@" + line.path("location").asText();
            String to = repromised ? key(subject, Instant.parse(line.path("promisedAt").asText())) : null;
            // the supply that ended: the one supply of this record the reservation waits for, other than the new one
            var from = current.keySet().stream().filter(k -> k.startsWith(subject + "|") && !k.equals(to)).toList();
            if (from.size() != 1) {
                waits.remove(id);
                lost.add(id);
                return;
            }
            current.merge(from.get(0), -line.path("quantity").asLong(), Long::sum);
            current.values().removeIf(units -> units <= 0);
            if (to != null) {
                current.merge(to, line.path("quantity").asLong(), Long::sum);
                withinSupply(to);
            }
        }
    }

    /** What a supply promised (all reservations' waits) plus what it allocated stays within its units. */
    private void withinSupply(String key) {
        Supply supply = byKey.get(key);
        if (supply == null) {
            return; // two supplies of one record share the date: not told apart, not checked
        }
        long promised = waits.values().stream().mapToLong(w -> w.getOrDefault(key, 0L)).sum();
        if (promised + allocated.getOrDefault(key, 0L) > supply.quantity()) {
            violation(Rule.I8, "supply " + supply.id() + " of " + supply.quantity() + " units has promised " + promised
                    + " and allocated " + allocated.getOrDefault(key, 0L));
        }
    }

    /** Units waiting per supply key; unpromised units (no date) wait for no supply and are left out. */
    private static Map<String, Long> waitsOf(JsonNode lines) {
        Map<String, Long> found = new TreeMap<>();
        for (JsonNode line : lines) {
            if (line.hasNonNull("promisedAt")) {
                found.merge(key(line.path("sku").asText() + "@" + line.path("location").asText(),
                        Instant.parse(line.path("promisedAt").asText())), line.path("quantity").asLong(), Long::sum);
            }
        }
        return found;
    }

    private static String key(String subject, Instant expectedAt) {
        return subject + "|" + expectedAt;
    }
}
