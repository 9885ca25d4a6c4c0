package dev.stockhold.chaos;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.chaos.Snapshot.Event;
import dev.stockhold.chaos.Snapshot.IdempotencyRecord;

/**
 * I7 as the admins saw it: every adjustment whose key holds a 200 is one stock.changed of its delta, a refused one
 * (409 stored) changed nothing, every 200 answer names the version its event carries, and of the compare-and-sets
 * sent with one ETag at most one won, with exactly the on hand it asked for.
 * Batches and warehouse counts are checked the same way, by their keys and ledger entries.
 */
final class AdminWritesAsAnswered extends Invariant {

    @Override
    void check() {
        Map<String, Event> byVersion = new HashMap<>();
        db.events().stream().filter(e -> e.stock() && e.kind().equals("changed") && !e.fulfilment())
                .forEach(e -> byVersion.put(e.subject() + "#" + e.data().path("version").asLong(), e));
        adjustments(db, clients, byVersion);
        batches(db, clients);
        long counted = counts(db, clients);
        totals(db, clients, byVersion, counted);
        compareAndSets(clients, byVersion);
    }

    /** Every adjustment answered: one ledger entry and one stock.changed of its delta under a 200, none under a refusal. */
    private void adjustments(Snapshot db, ClientLog clients, Map<String, Event> byVersion) {
        for (ClientLog.AdjustAnswer answer : clients.adjustAnswers) {
            ClientLog.Adjustment a = clients.adjustments.get(answer.key());
            IdempotencyRecord stored = db.idempotency().get(answer.key());
            int entries = db.ledger() == null ? -1 : db.entriesByKey().getOrDefault(answer.key(), 0);
            if (entries > 1 || (entries == 0 && stored != null && stored.status() == 200)
                    || (entries == 1 && stored != null && stored.status() != 200)) {
                violation(Rule.I7, "adjustment " + a + " stored " + stored + " has " + entries + " ledger entries");
            }
            if (answer.status() == 200) {
                Event event = byVersion.get(a.sku() + "@" + a.location() + "#" + answer.version());
                if (event == null || event.data().path("delta").asLong() != a.delta() || stored == null || stored.status() != 200) {
                    violation(Rule.I7, "adjustment " + a + " answered version " + answer.version() + " but its event is " + event);
                }
            } else if (answer.status() == 409 && "stock-below-held".equals(answer.problem())) {
                if (stored == null || stored.status() != 409) {
                    violation(Rule.I7, "adjustment " + a + " answered stock-below-held but stored " + stored);
                }
            } else if (answer.status() < 500 && answer.status() != 429 && !"idempotency-request-in-progress".equals(answer.problem())) {
                violation(Rule.I7, "adjustment " + a + " answered " + answer.status() + " " + answer.problem());
            }
        }
    }

    /** The stock.changed events add up: seeds, applied adjustments and won sets (and at most the sets of unknown outcome). */
    private void totals(Snapshot db, ClientLog clients, Map<String, Event> byVersion, long counted) {
        long applied = clients.adjustments.values().stream()
                .filter(a -> db.idempotency().containsKey(a.key()) && db.idempotency().get(a.key()).status() == 200).count()
                + clients.batches.values().stream()
                        .filter(b -> db.idempotency().containsKey(b.key()) && db.idempotency().get(b.key()).status() == 200)
                        .mapToLong(b -> b.items().size()).sum();
        long seeded = db.records().keySet().stream().filter(s -> s.endsWith("@default")).count();
        // a transfer's or purchase receipt's changes of on hand are theirs, not an admin write the clients' answers count
        long changed = byVersion.values().stream()
                .filter(e -> !e.count() && !Set.of("transfer", "purchase-receipt").contains(e.data().path("kind").asText())).count();
        long setsWon = clients.setAnswers.stream().filter(a -> a.status() == 200).count();
        if (changed < seeded + applied + setsWon || changed > seeded + applied + setsWon + clients.unknownSets.sum()) {
            violation(Rule.I7, changed + " stock.changed events for " + seeded + " seeds + " + applied + " applied adjustments + "
                    + setsWon + " sets won (+ up to " + clients.unknownSets.sum() + " sets of unknown outcome)");
        }
        long countEvents = byVersion.values().stream().filter(Event::count).count();
        if (counted >= 0 && countEvents != counted) {
            violation(Rule.I7, countEvents + " stock.changed events of counts, but counts wrote " + counted + " ledger entries");
        }
    }

    /** Of the compare-and-sets sent with one ETag at most one won, with exactly the on hand it asked for. */
    private void compareAndSets(ClientLog clients, Map<String, Event> byVersion) {
        Map<String, Integer> winners = new HashMap<>();
        for (ClientLog.SetAnswer set : clients.setAnswers) {
            if (set.status() == 200) {
                winners.merge(set.sku() + "@" + set.location() + " " + set.ifMatch(), 1, Integer::sum);
                Event event = byVersion.get(set.sku() + "@" + set.location() + "#" + set.version());
                if (event == null || event.data().path("onHand").asLong() != set.onHand()
                        || !set.ifMatch().equals("\"" + (set.version() - 1) + "\"")) {
                    violation(Rule.I7, "compare-and-set " + set + " but its event is " + event);
                }
            } else if (!(set.status() == 412 && "precondition-failed".equals(set.problem()))
                    && !(set.status() == 409 && "stock-below-held".equals(set.problem())) && set.status() < 500 && set.status() != 429) {
                violation(Rule.I7, "compare-and-set answered " + set);
            }
        }
        winners.forEach((etag, n) -> {
            if (n > 1) {
                violation(Rule.I7, n + " compare-and-sets won with the same If-Match " + etag);
            }
        });
    }

    /**
     * Batches of adjustments as the admins saw them: all or nothing, so a key holding a 200 wrote one ledger entry per
     * record of the batch, a refused one (409 stored) none; an answer is a 200, a stock-below-held refusal, or one a
     * client retries.
     */
    private void batches(Snapshot db, ClientLog clients) {
        if (db.ledger() == null) {
            return;
        }
        for (ClientLog.Batch b : clients.batches.values()) {
            IdempotencyRecord stored = db.idempotency().get(b.key());
            int entries = db.entriesByKey().getOrDefault(b.key(), 0);
            boolean agrees = stored == null ? entries == 0
                    : stored.status() == 200 ? entries == b.items().size() : stored.status() == 409 && entries == 0;
            if (!agrees) {
                violation(Rule.I7, "batch " + b + " stored " + stored + " has " + entries + " ledger entries");
            }
        }
        for (ClientLog.BatchAnswer answer : clients.batchAnswers) {
            IdempotencyRecord stored = db.idempotency().get(answer.key());
            boolean agrees = switch (answer.status()) {
                case 200 -> stored != null && stored.status() == 200;
                case 409 -> "stock-below-held".equals(answer.problem()) ? stored != null && stored.status() == 409
                        : "idempotency-request-in-progress".equals(answer.problem());
                default -> answer.status() >= 500 || answer.status() == 429;
            };
            if (!agrees) {
                violation(Rule.I7, "batch " + answer + " but stored " + stored);
            }
        }
    }

    /**
     * Warehouse counts as the admins saw them: a 200 wrote exactly one snapshot ledger entry per record it reports
     * applied with a drift (a count never changes held or committed: the records' held and committed are checked against
     * the reservations above, whatever the counts did), and nothing else.
     *
     * @return the ledger entries all counts wrote; -1 without a ledger
     */
    private long counts(Snapshot db, ClientLog clients) {
        if (db.ledger() == null) {
            return -1;
        }
        for (ClientLog.CountAnswer answer : clients.countAnswers) {
            IdempotencyRecord stored = db.idempotency().get(answer.key());
            int entries = db.entriesByKey().getOrDefault(answer.key(), 0);
            boolean agrees = switch (answer.status()) {
                case 200 -> stored != null && stored.status() == 200 && entries == answer.changed();
                case 409 -> "idempotency-request-in-progress".equals(answer.problem());
                default -> answer.status() >= 500 || answer.status() == 429;
            };
            if (!agrees) {
                violation(Rule.I7, "count " + answer + " stored " + stored + " has " + entries + " ledger entries");
            }
        }
        for (ClientLog.Count c : clients.counts.values()) {
            int entries = db.entriesByKey().getOrDefault(c.key(), 0);
            if (entries > (c.body().contains("\"full\"") ? Integer.MAX_VALUE : c.skus().size())
                    || (entries > 0 && !db.idempotency().containsKey(c.key()))) {
                violation(Rule.I7, "count " + c.key() + " listing " + c.skus() + " wrote " + entries + " ledger entries, stored "
                        + db.idempotency().get(c.key()));
            }
        }
        return clients.counts.keySet().stream().mapToLong(k -> db.entriesByKey().getOrDefault(k, 0)).sum();
    }
}
