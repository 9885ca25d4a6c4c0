package dev.stockhold.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Event;
import dev.stockhold.support.BrokerQueue.Delivery;

/**
 * I6: every event written was received, under its own id as message id, in write order per aggregate; every delivery
 * of one event carries the same sequence number, and the numbers received per aggregate have no gap, across relay
 * kills, broker outages and redeliveries.
 */
final class DeliveredInOrder extends Invariant {

    @Override
    void check() {
        delivery(run.db(), run.received());
        sequences(run.received());
    }

    /** {@code received} is in the order the consumer got them. */
    private void delivery(Snapshot db, List<Delivery> received) {
        Map<String, Long> firstSeen = new HashMap<>();
        for (int position = 0; position < received.size(); position++) {
            Delivery d = received.get(position);
            firstSeen.putIfAbsent(d.eventId(), (long) position);
            if (!d.eventId().equals(d.messageId())) {
                violation(Rule.I6, "delivery with message_id " + d.messageId() + " carries event " + d.eventId());
            }
        }
        Set<String> written = new HashSet<>();
        Map<String, Long> lastPosition = new HashMap<>();
        for (Event e : db.events()) { // in seq (write) order
            written.add(e.id());
            Long position = firstSeen.get(e.id());
            if (position == null) {
                findings().missingEvents.add("missing: event " + e.id() + " (" + e.kind() + ", " + e.status() + ") never received");
                continue;
            }
            Long previous = lastPosition.put(e.aggregateId(), position);
            if (previous != null && previous > position) {
                violation(Rule.I6, (e.stock() ? "stock record " + e.subject() : "reservation " + e.aggregateId()) + ": " + e.kind()
                        + " received before an earlier event");
            }
        }
        received.stream().map(Delivery::eventId).filter(id -> !written.contains(id)).distinct()
                .forEach(id -> violation(Rule.I6, "received event " + id + " that was never written"));
    }

    private void sequences(List<Delivery> received) {
        Map<String, Long> byEvent = new HashMap<>();
        Map<String, Set<Long>> receivedByAggregate = new TreeMap<>();
        for (Delivery d : received) {
            Long before = byEvent.putIfAbsent(d.eventId(), d.sequence());
            if (before != null && before != d.sequence()) {
                violation(Rule.I6, "event " + d.eventId() + " delivered with sequence " + before + " and then " + d.sequence());
            }
            receivedByAggregate.computeIfAbsent(d.partitionKey(), k -> new TreeSet<>()).add(d.sequence());
        }
        for (Map.Entry<String, Set<Long>> e : receivedByAggregate.entrySet()) {
            long max = e.getValue().stream().mapToLong(Long::longValue).max().orElse(0);
            List<Long> absent = new ArrayList<>();
            for (long n = 1; n <= max; n++) {
                if (!e.getValue().contains(n)) {
                    absent.add(n);
                }
            }
            if (!absent.isEmpty()) {
                findings().sequenceGaps += absent.size();
                violation(Rule.I6, "aggregate " + e.getKey() + ": sequence gaps, " + absent + " never received below " + max);
            }
        }
    }
}
