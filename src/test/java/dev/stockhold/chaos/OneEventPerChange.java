package dev.stockhold.chaos;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Event;
import dev.stockhold.reservation.ReservationStatus;

/**
 * I4, one outbox event per state change: per stock record, one stock.changed per version and depleted/replenished
 * alternating from the first write, ending where available ends; per reservation, the events of its status in the
 * lifecycle table's order; per aggregate, the CloudEvents sequence numbered 1, 2, 3, ... in write order.
 */
final class OneEventPerChange extends Invariant {

    @Override
    void check() {
        stock(run.db());
        reservations(run.db());
        sequences(run.db());
    }

    private void stock(Snapshot db) {
        Map<String, List<Event>> stockEvents = db.stockEvents();
        db.records().forEach((subject, record) -> {
            List<Event> events = stockEvents.getOrDefault(subject, List.of());
            List<Long> versions = events.stream().filter(e -> e.kind().equals("changed") && !e.fulfilment())
                    .map(e -> e.data().path("version").asLong()).toList();
            List<Long> expected = LongStream.rangeClosed(1, record.version()).boxed().toList();
            if (!versions.equals(expected)) {
                violation(Rule.I4, subject + ": stock.changed versions " + versions + " for version " + record.version());
            }
            List<String> crossings = events.stream().map(Event::kind).filter(k -> k.equals("depleted") || k.equals("replenished"))
                    .toList();
            String expectedNext = "replenished";
            for (String crossing : crossings) {
                if (!crossing.equals(expectedNext)) {
                    violation(Rule.I4, subject + ": crossings out of turn " + crossings);
                    break;
                }
                expectedNext = crossing.equals("replenished") ? "depleted" : "replenished";
            }
            if ((record.available() == 0) != expectedNext.equals("replenished")) {
                violation(Rule.I4, subject + ": available " + record.available() + " but crossings " + crossings);
            }
        });
        stockEvents.keySet().stream().filter(subject -> !db.records().containsKey(subject))
                .forEach(subject -> violation(Rule.I4, "stock events for a record that does not exist: " + subject));
    }

    /** Events a HELD reservation may have any number of, between its created event and its last. */
    private static final Set<String> WHILE_HELD = Set.of("extended", "updated", "allocated", "repromised", "unpromised");

    private void reservations(Snapshot db) {
        Map<String, List<String>> kinds = new HashMap<>();
        db.events().stream().filter(e -> !e.stock() && !e.kind().startsWith("transfer."))
                .forEach(e -> kinds.computeIfAbsent(e.aggregateId(), a -> new ArrayList<>()).add(e.kind()));
        db.reservations().values().forEach(r -> {
            // the lifecycle table the service writes by: the events of a reservation in this status
            List<String> expected = Arrays.stream(ReservationStatus.values()).filter(s -> s.name().equals(r.status())).findFirst()
                    .map(s -> s.history().stream().map(t -> t.routingKey().substring(t.routingKey().indexOf('.') + 1)).toList())
                    .orElse(List.of("unknown status " + r.status()));
            List<String> all = kinds.getOrDefault(r.id(), List.of());
            // fulfilments and releases follow the confirm of a deferred reservation, any number of them
            int settled = 0;
            while (settled < all.size() && Set.of("fulfilled", "released").contains(all.get(all.size() - 1 - settled))) {
                settled++;
            }
            List<String> actual = all.subList(0, all.size() - settled);
            List<String> settlements = all.subList(all.size() - settled, all.size());
            boolean settledRight = switch (r.status()) {
                case "CONFIRMED" -> !settlements.contains("fulfilled") && (r.deferred() || settlements.isEmpty());
                case "PARTIALLY_FULFILLED" -> r.deferred() && settlements.contains("fulfilled");
                case "FULFILLED" -> r.deferred() && !settlements.isEmpty();
                default -> settlements.isEmpty();
            };
            // extends, edits and a backorder's allocations and new promises come between the created event and the final
            // one, any number of them
            List<String> withoutExtends = actual.stream().filter(kind -> !WHILE_HELD.contains(kind)).toList();
            boolean extendsInPlace = settledRight && !actual.isEmpty() && actual.get(0).equals("created")
                    && (expected.size() == 1 || actual.get(actual.size() - 1).equals(expected.get(1)));
            if (!withoutExtends.equals(expected) || !extendsInPlace) {
                violation(Rule.I4, "reservation " + r.id() + " is " + r.status() + " with events " + all);
            }
        });
        kinds.keySet().stream().filter(id -> !db.reservations().containsKey(id))
                .forEach(id -> violation(Rule.I4, "events for a reservation that does not exist: " + id));
    }

    /** The events written per aggregate (partitionkey) are numbered 1, 2, 3, ... in write order. */
    private void sequences(Snapshot db) {
        Map<String, List<Long>> written = new LinkedHashMap<>();
        db.events().forEach(e -> written.computeIfAbsent(e.partitionKey(), k -> new ArrayList<>()).add(e.sequence()));
        written.forEach((key, numbers) -> {
            for (int i = 0; i < numbers.size(); i++) {
                if (numbers.get(i) != i + 1) {
                    violation(Rule.I4, "aggregate " + key + ": events written with sequences " + numbers);
                    return;
                }
            }
        });
    }
}
