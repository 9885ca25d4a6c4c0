package dev.stockhold.chaos;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Event;
import dev.stockhold.chaos.Snapshot.Ledger;
import dev.stockhold.chaos.Snapshot.StockRecord;
import dev.stockhold.reservation.ReservationStatus;

/**
 * I2, per stock record, from the rows alone: held = the HELD lines there; committed = the open lines of confirmed
 * deferred reservations; on hand = what the admins' writes added (the stock.changed deltas) minus the units sold there
 * (confirmed lines, or fulfilled ones); the seeded records start with the stock the run set; and the movement ledger's
 * entries sum to on hand and committed, numbered 1..movements without a gap.
 */
final class Conservation extends Invariant {

    @Override
    void check() {
        Map<String, Long> held = new HashMap<>();
        Map<String, Long> sold = new HashMap<>();
        Map<String, Long> committed = new HashMap<>();
        db.reservations().values().forEach(r -> r.at().forEach((at, q) -> {
            if (ReservationStatus.holding().contains(ReservationStatus.valueOf(r.status()))) {
                held.merge(at, (long) q, Long::sum);
            } else if (r.confirmed() && !r.deferred()) {
                sold.merge(at, (long) q, Long::sum);
            } else if (r.confirmed()) {
                long fulfilled = r.fulfilled().getOrDefault(at, 0);
                sold.merge(at, fulfilled, Long::sum);
                committed.merge(at, q - fulfilled - r.released().getOrDefault(at, 0), Long::sum);
            }
        }));
        Map<String, List<Event>> stockEvents = db.stockEvents();
        db.records().forEach((subject, record) -> {
            if (record.held() != held.getOrDefault(subject, 0L)) {
                violation(Rule.I2, subject + ": held " + record.held() + " != HELD lines " + held.getOrDefault(subject, 0L));
            }
            if (record.committed() != committed.getOrDefault(subject, 0L)) {
                violation(Rule.I2,
                        subject + ": committed " + record.committed() + " != open deferred lines " + committed.getOrDefault(subject, 0L));
            }
            ledger(db, subject, record);
            // admin writes: a fulfilment's stock.changed moves on hand by what the lines say was fulfilled
            List<Event> changed = stockEvents.getOrDefault(subject, List.of()).stream()
                    .filter(e -> e.kind().equals("changed") && !e.fulfilment()).toList();
            long added = changed.stream().mapToLong(e -> e.data().path("delta").asLong()).sum();
            if (record.onHand() != added - sold.getOrDefault(subject, 0L)) {
                violation(Rule.I2, subject + ": on hand " + record.onHand() + " != admin deltas " + added + " - sold (confirmed or "
                        + "fulfilled) lines " + sold.getOrDefault(subject, 0L));
            }
            String sku = subject.substring(0, subject.indexOf('@'));
            if (subject.endsWith("@default") && run.initialStock().containsKey(sku)
                    && (changed.isEmpty() || changed.get(0).data().path("delta").asLong() != run.initialStock().get(sku))) {
                violation(Rule.I2, subject + ": the first write is not the seeded " + run.initialStock().get(sku));
            }
        });
    }

    /** The movement ledger of one record agrees with it; not checked when the snapshot did not read the ledger. */
    private void ledger(Snapshot db, String subject, StockRecord record) {
        if (db.ledger() == null) {
            return;
        }
        Ledger l = db.ledger().getOrDefault(subject, new Ledger(0, 0, 0, 0));
        if (l.onHand() != record.onHand() || l.committed() != record.committed() || l.entries() != record.movements()
                || l.lastSeq() != record.movements()) {
            violation(Rule.I2, subject + ": ledger " + l + " != record on hand " + record.onHand() + ", committed " + record.committed()
                    + ", movements " + record.movements());
        }
    }
}
