package dev.stockhold.chaos;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

import dev.stockhold.chaos.ClientLog.Intent;
import dev.stockhold.chaos.ClientLog.ReserveAnswer;
import dev.stockhold.chaos.ClientLog.TransitionAnswer;
import dev.stockhold.inventory.Reservable;
import dev.stockhold.reservation.ReservationStatus;
import dev.stockhold.support.BrokerQueue.Delivery;

/**
 * Contract invariants I1-I4, I6 and I7 checked from the database and from what the consumer received, plus the
 * clients' view: every answer a client did receive agrees with the final state. Reads the database directly (never the API),
 * and trusts nothing the service computed for itself: conservation is checked against the stock the run set.
 */
final class InvariantChecker {

    /**
     * The database as it is after the run: the rows of one tenant. {@code ledger}: per record, its movement ledger (null:
     * not read, as in the checker's own tests); {@code entriesByKey}: ledger entries per Idempotency-Key.
     */
    record Snapshot(Map<String, StockRecord> records, Map<String, Reservation> reservations,
            List<Event> events, Map<String, IdempotencyRecord> idempotency, Map<String, Ledger> ledger, Map<String, Integer> entriesByKey) {

        Snapshot(Map<String, StockRecord> records, Map<String, Reservation> reservations, List<Event> events,
                Map<String, IdempotencyRecord> idempotency) {
            this(records, reservations, events, idempotency, null, Map.of());
        }
    }

    /** One stock record; keyed sku@location like the stock events' subject. */
    record StockRecord(String subject, long onHand, long held, long version, long committed, long movements) {

        StockRecord(String subject, long onHand, long held, long version) {
            this(subject, onHand, held, version, 0, 0);
        }
    }

    /** A record's ledger: the sums of its entries' deltas, how many there are and the highest seq. */
    record Ledger(long onHand, long committed, long entries, long lastSeq) {
    }

    /**
     * {@code lines}: quantity by sku; {@code at}: quantity by sku@location; with deferred fulfilment, {@code fulfilled}
     * and {@code released} units by sku@location.
     */
    record Reservation(String id, String status, String key, Map<String, Integer> lines, Map<String, Integer> at, boolean deferred,
            Map<String, Integer> fulfilled, Map<String, Integer> released) {

        Reservation(String id, String status, String key, Map<String, Integer> lines, Map<String, Integer> at) {
            this(id, status, key, lines, at, false, Map.of(), Map.of());
        }

        /** Confirmed: sold at once, or with deferred fulfilment committed until fulfilled or released. */
        boolean confirmed() {
            return status.equals("CONFIRMED") || status.equals("PARTIALLY_FULFILLED") || status.equals("FULFILLED");
        }
    }

    /** {@code stock}: a stock event, with its subject and data; else a reservation event. */
    record Event(String id, long seq, String aggregateId, String kind, String status, boolean stock, String subject, JsonNode data,
            String partitionKey, long sequence) {
    }

    record IdempotencyRecord(String key, int status, String reservationId) {
    }

    /** What the checker found. {@code violations} holds one line per broken rule, prefixed with its invariant. */
    record Result(List<String> violations, Map<String, Integer> violationsByRule, List<String> missingEvents,
            int eventsMissing, int duplicates, int delivered, int outboxEvents, Map<String, Integer> reservationsByStatus,
            int sequenceGaps) {
        boolean passed() {
            return violations.isEmpty() && eventsMissing == 0;
        }
    }

    /** The rules a run is checked against, by the invariant names of docs/api.md; the report counts violations per rule. */
    enum Rule {
        I1("I1 held and available never negative"),
        I2("I2 conservation per stock record"),
        I3("I3 one reservation per (tenant, key)"),
        I4("I4 one outbox event per state change"),
        I6("I6 delivered, same id, in order"),
        ANSWERS("answers agree with final state"),
        I7("I7 admin writes as answered, none lost");

        final String label;

        Rule(String label) {
            this.label = label;
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    static Snapshot snapshot(Connection c, String tenant) throws SQLException {
        Map<String, StockRecord> records = new TreeMap<>();
        query(c, "SELECT sku || '@' || location, on_hand, held, version, committed, movements FROM stock_records WHERE tenant_id = ?",
                tenant, rs -> records.put(rs.getString(1), new StockRecord(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6))));
        Map<String, Reservation> reservations = new HashMap<>();
        query(c, "SELECT id::text, status, idempotency_key, fulfilment IS NOT NULL FROM reservations WHERE tenant_id = ?", tenant,
                rs -> reservations.put(rs.getString(1), new Reservation(rs.getString(1), rs.getString(2), rs.getString(3),
                        new LinkedHashMap<>(), new LinkedHashMap<>(), rs.getBoolean(4), new HashMap<>(), new HashMap<>())));
        query(c, """
                SELECT l.reservation_id::text, l.sku, l.quantity, coalesce(l.location, 'default'), l.fulfilled, l.released
                  FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id WHERE r.tenant_id = ?""", tenant, rs -> {
            Reservation r = reservations.get(rs.getString(1));
            String at = rs.getString(2) + "@" + rs.getString(4);
            r.lines().merge(rs.getString(2), rs.getInt(3), Integer::sum);
            r.at().put(at, rs.getInt(3));
            r.fulfilled().put(at, rs.getInt(5));
            r.released().put(at, rs.getInt(6));
        });
        Map<String, Ledger> ledger = new HashMap<>();
        query(c, """
                SELECT sku || '@' || location, sum(on_hand_delta), sum(committed_delta), count(*), max(seq) FROM stock_movements
                 WHERE tenant_id = ? GROUP BY sku, location""", tenant,
                rs -> ledger.put(rs.getString(1), new Ledger(rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5))));
        Map<String, Integer> entriesByKey = new HashMap<>();
        query(c, "SELECT idempotency_key, count(*) FROM stock_movements WHERE tenant_id = ? AND idempotency_key IS NOT NULL GROUP BY 1",
                tenant, rs -> entriesByKey.put(rs.getString(1), rs.getInt(2)));
        List<Event> events = new ArrayList<>();
        query(c, "SELECT id::text, seq, aggregate_id::text, event_type, status, payload::text FROM outbox_events WHERE tenant_id = ? ORDER BY seq",
                tenant, rs -> {
                    String[] type = rs.getString(4).split("\\.");
                    boolean stock = type[2].equals("stock");
                    JsonNode payload = parse(rs.getString(6));
                    events.add(new Event(rs.getString(1), rs.getLong(2), rs.getString(3), type[3], rs.getString(5), stock,
                            stock ? payload.path("subject").asText() : null, stock ? payload.path("data") : null,
                            payload.path("partitionkey").asText(), payload.path("sequence").asLong(0)));
                });
        Map<String, IdempotencyRecord> idempotency = new HashMap<>();
        query(c, "SELECT idempotency_key, status_code, reservation_id::text FROM idempotency_records WHERE tenant_id = ?",
                tenant, rs -> idempotency.put(rs.getString(1), new IdempotencyRecord(rs.getString(1), rs.getInt(2),
                        rs.getString(3))));
        return new Snapshot(records, reservations, events, idempotency, ledger, entriesByKey);
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    private static void query(Connection c, String sql, String tenant, Row row) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    row.accept(rs);
                }
            }
        }
    }

    private final List<String> violations = new ArrayList<>();
    private final Map<String, Integer> byRule = new LinkedHashMap<>();
    private final List<String> missingEvents = new ArrayList<>();

    private void violation(Rule rule, String detail) {
        String name = rule.label;
        byRule.merge(name, 1, Integer::sum);
        violations.add(name.split(" ")[0] + ": " + detail);
    }

    Result check(Snapshot db, Map<String, Long> initialStock, ClientLog clients, List<Delivery> received) {
        for (Rule r : Rule.values()) {
            byRule.put(r.label, 0);
        }
        stock(db, initialStock, clients);
        adminWrites(db, clients);
        keys(db);
        events(db);
        int missing = delivery(db, received);
        int gaps = sequences(db, received);
        answers(db, clients);
        Map<String, Integer> byStatus = new TreeMap<>();
        db.reservations().values().forEach(r -> byStatus.merge(r.status(), 1, Integer::sum));
        int distinct = (int) received.stream().map(Delivery::eventId).distinct().count();
        return new Result(List.copyOf(violations), new LinkedHashMap<>(byRule), List.copyOf(missingEvents), missing,
                received.size() - distinct,
                received.size(), db.events().size(), byStatus, gaps);
    }

    /**
     * The CloudEvents sequence, per aggregate (partitionkey): the events written are numbered 1, 2, 3, ... in write order
     * (I4); every delivery of one event carries the same number, and the numbers received per aggregate have no gap
     * (I6), across relay kills, broker outages and redeliveries.
     *
     * @return the numbers missing from what was received, over all aggregates
     */
    private int sequences(Snapshot db, List<Delivery> received) {
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
        Map<String, Long> byEvent = new HashMap<>();
        Map<String, Set<Long>> receivedByAggregate = new TreeMap<>();
        for (Delivery d : received) {
            Long before = byEvent.putIfAbsent(d.eventId(), d.sequence());
            if (before != null && before != d.sequence()) {
                violation(Rule.I6, "event " + d.eventId() + " delivered with sequence " + before + " and then " + d.sequence());
            }
            receivedByAggregate.computeIfAbsent(d.partitionKey(), k -> new TreeSet<>()).add(d.sequence());
        }
        int gaps = 0;
        for (Map.Entry<String, Set<Long>> e : receivedByAggregate.entrySet()) {
            long max = e.getValue().stream().mapToLong(Long::longValue).max().orElse(0);
            List<Long> absent = new ArrayList<>();
            for (long n = 1; n <= max; n++) {
                if (!e.getValue().contains(n)) {
                    absent.add(n);
                }
            }
            if (!absent.isEmpty()) {
                gaps += absent.size();
                violation(Rule.I6, "aggregate " + e.getKey() + ": sequence gaps, " + absent + " never received below " + max);
            }
        }
        return gaps;
    }

    /**
     * Per stock record, from the rows alone: I1; I2 as held = the HELD lines there and on hand = what the admins' writes
     * added (the stock.changed deltas) minus the CONFIRMED lines there; I4 as one stock.changed per version and
     * depleted/replenished alternating from the first write and ending where available ends. The seeded records must
     * start with the stock the run set.
     */
    private void stock(Snapshot db, Map<String, Long> initialStock, ClientLog clients) {
        Map<String, Long> held = new HashMap<>();
        Map<String, Long> sold = new HashMap<>();
        Map<String, Long> committed = new HashMap<>();
        db.reservations().values().forEach(r -> r.at().forEach((at, q) -> {
            if (r.status().equals("HELD")) {
                held.merge(at, (long) q, Long::sum);
            } else if (r.confirmed() && !r.deferred()) {
                sold.merge(at, (long) q, Long::sum);
            } else if (r.confirmed()) {
                long fulfilled = r.fulfilled().getOrDefault(at, 0);
                sold.merge(at, fulfilled, Long::sum);
                committed.merge(at, q - fulfilled - r.released().getOrDefault(at, 0), Long::sum);
            }
        }));
        Map<String, List<Event>> stockEvents = new HashMap<>();
        db.events().stream().filter(Event::stock).forEach(e -> stockEvents.computeIfAbsent(e.subject(), k -> new ArrayList<>()).add(e));
        db.records().forEach((subject, record) -> {
            long available = Reservable.available(record.onHand(), record.held(), record.committed());
            if (record.held() < 0 || record.committed() < 0 || available < 0) {
                violation(Rule.I1,
                        subject + " has on hand " + record.onHand() + ", held " + record.held() + ", committed " + record.committed());
            }
            if (record.held() != held.getOrDefault(subject, 0L)) {
                violation(Rule.I2, subject + ": held " + record.held() + " != HELD lines " + held.getOrDefault(subject, 0L));
            }
            if (record.committed() != committed.getOrDefault(subject, 0L)) {
                violation(Rule.I2,
                        subject + ": committed " + record.committed() + " != open deferred lines " + committed.getOrDefault(subject, 0L));
            }
            ledger(db, subject, record);
            List<Event> events = stockEvents.getOrDefault(subject, List.of());
            // admin writes: a fulfilment's stock.changed moves on hand by what the lines say was fulfilled
            List<Event> changed = events.stream().filter(e -> e.kind().equals("changed") && !isFulfilment(e)).toList();
            long added = changed.stream().mapToLong(e -> e.data().path("delta").asLong()).sum();
            if (record.onHand() != added - sold.getOrDefault(subject, 0L)) {
                violation(Rule.I2, subject + ": on hand " + record.onHand() + " != admin deltas " + added + " - sold (confirmed or "
                        + "fulfilled) lines " + sold.getOrDefault(subject, 0L));
            }
            String sku = subject.substring(0, subject.indexOf('@'));
            if (subject.endsWith("@default") && initialStock.containsKey(sku)
                    && (changed.isEmpty() || changed.get(0).data().path("delta").asLong() != initialStock.get(sku))) {
                violation(Rule.I2, subject + ": the first write is not the seeded " + initialStock.get(sku));
            }
            List<Long> versions = changed.stream().map(e -> e.data().path("version").asLong()).toList();
            List<Long> expected = java.util.stream.LongStream.rangeClosed(1, record.version()).boxed().toList();
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
            boolean empty = available == 0;
            if (empty != expectedNext.equals("replenished")) {
                violation(Rule.I4, subject + ": available " + available + " but crossings " + crossings);
            }
        });
        stockEvents.keySet().stream().filter(subject -> !db.records().containsKey(subject))
                .forEach(subject -> violation(Rule.I4, "stock events for a record that does not exist: " + subject));
    }

    /** A stock.changed written by a warehouse count. */
    private static boolean isCount(Event e) {
        return "snapshot".equals(e.data().path("reason").asText());
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

    private static boolean isFulfilment(Event e) {
        return "fulfil".equals(e.data().path("kind").asText());
    }

    /**
     * I2 on the movement ledger: the entries of a record sum to its on hand and committed, and are numbered 1..movements
     * without a gap (one entry per change).
     */
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

    /**
     * I7 as the admins saw it: every adjustment whose key holds a 200 is one stock.changed of its delta, a refused one
     * (409 stored) changed nothing, every 200 answer names the version its event carries, and of the compare-and-sets
     * sent with one ETag at most one won, with exactly the on hand it asked for.
     */
    private void adminWrites(Snapshot db, ClientLog clients) {
        Map<String, Event> byVersion = new HashMap<>();
        db.events().stream().filter(e -> e.stock() && e.kind().equals("changed") && !isFulfilment(e))
                .forEach(e -> byVersion.put(e.subject() + "#" + e.data().path("version").asLong(), e));
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
        batches(db, clients);
        long counted = counts(db, clients);
        long applied = clients.adjustments.values().stream()
                .filter(a -> db.idempotency().containsKey(a.key()) && db.idempotency().get(a.key()).status() == 200).count()
                + clients.batches.values().stream()
                        .filter(b -> db.idempotency().containsKey(b.key()) && db.idempotency().get(b.key()).status() == 200)
                        .mapToLong(b -> b.items().size()).sum();
        long seeded = db.records().keySet().stream().filter(s -> s.endsWith("@default")).count();
        long changed = byVersion.values().stream().filter(e -> !isCount(e)).count();
        long setsWon = clients.setAnswers.stream().filter(a -> a.status() == 200).count();
        if (changed < seeded + applied + setsWon || changed > seeded + applied + setsWon + clients.unknownSets.sum()) {
            violation(Rule.I7, changed + " stock.changed events for " + seeded + " seeds + " + applied + " applied adjustments + "
                    + setsWon + " sets won (+ up to " + clients.unknownSets.sum() + " sets of unknown outcome)");
        }
        long countEvents = byVersion.values().stream().filter(InvariantChecker::isCount).count();
        if (counted >= 0 && countEvents != counted) {
            violation(Rule.I7, countEvents + " stock.changed events of counts, but counts wrote " + counted + " ledger entries");
        }
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

    private void keys(Snapshot db) {
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
        db.idempotency().values().stream()
                .filter(r -> r.status() == 201 && !db.reservations().containsKey(r.reservationId()))
                .forEach(r -> violation(Rule.I3, "stored 201 for key " + r.key() + " names no reservation"));
    }

    private void events(Snapshot db) {
        Map<String, List<String>> kinds = new HashMap<>();
        db.events().stream().filter(e -> !e.stock())
                .forEach(e -> kinds.computeIfAbsent(e.aggregateId(), a -> new ArrayList<>()).add(e.kind()));
        db.reservations().values().forEach(r -> {
            // the lifecycle table the service writes by: the events of a reservation in this status
            List<String> expected = java.util.Arrays.stream(ReservationStatus.values()).filter(s -> s.name().equals(r.status()))
                    .findFirst().map(s -> s.history().stream().map(t -> t.routingKey().substring(t.routingKey().indexOf('.') + 1))
                            .toList())
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
            // extends and edits come between the created event and the final one, any number of them
            List<String> withoutExtends = actual.stream().filter(kind -> !kind.equals("extended") && !kind.equals("updated")).toList();
            boolean extendsInPlace = settledRight && !actual.isEmpty() && actual.get(0).equals("created")
                    && (expected.size() == 1 || actual.get(actual.size() - 1).equals(expected.get(1)));
            if (!withoutExtends.equals(expected) || !extendsInPlace) {
                violation(Rule.I4, "reservation " + r.id() + " is " + r.status() + " with events " + all);
            }
        });
        kinds.keySet().stream().filter(id -> !db.reservations().containsKey(id))
                .forEach(id -> violation(Rule.I4, "events for a reservation that does not exist: " + id));
    }

    /** @return events written but never received; {@code received} is in the order the consumer got them */
    private int delivery(Snapshot db, List<Delivery> received) {
        Map<String, Long> firstSeen = new HashMap<>();
        for (int position = 0; position < received.size(); position++) {
            Delivery d = received.get(position);
            firstSeen.putIfAbsent(d.eventId(), (long) position);
            if (!d.eventId().equals(d.messageId())) {
                violation(Rule.I6, "delivery with message_id " + d.messageId() + " carries event " + d.eventId());
            }
        }
        Set<String> written = new HashSet<>();
        int missing = 0;
        Map<String, Long> lastPosition = new HashMap<>();
        for (Event e : db.events()) { // in seq (write) order
            written.add(e.id());
            Long position = firstSeen.get(e.id());
            if (position == null) {
                missing++;
                missingEvents.add("missing: event " + e.id() + " (" + e.kind() + ", " + e.status() + ") never received");
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
        return missing;
    }

    private void answers(Snapshot db, ClientLog clients) {
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
        settlements(db, clients);
        edits(db, clients);
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
            java.util.function.Predicate<String> reached = status -> confirm
                    ? status != null && (status.equals("CONFIRMED") || (r != null && r.deferred() && (status.equals("PARTIALLY_FULFILLED")
                            || status.equals("FULFILLED"))))
                    : "CANCELLED".equals(status);
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

    /**
     * Fulfilments and releases as the clients saw them: a 200 wrote exactly one ledger entry under its key, a refusal
     * (over-fulfilment, or a reservation that was not a confirmed deferred one) none, an unknown outcome at most one;
     * and the reservation's lines account for every unit answered 200.
     */
    private void settlements(Snapshot db, ClientLog clients) {
        Map<String, Integer> answeredUnits = new HashMap<>();
        for (ClientLog.SettleAnswer a : clients.settleAnswers) {
            Reservation r = db.reservations().get(a.reservationId());
            int entries = db.ledger() == null ? -1 : db.entriesByKey().getOrDefault(a.key(), 0);
            boolean agrees = switch (a.status()) {
                case 200 -> (entries == 1 || entries == -1) && r != null && r.deferred() && r.confirmed();
                case 409 -> ("over-fulfilment".equals(a.problem()) || "invalid-reservation-state".equals(a.problem())) && entries <= 0;
                case 0, 429, 502, 503, 504 -> entries <= 1;
                default -> false;
            };
            if (!agrees) {
                violation(Rule.ANSWERS, a.action() + " " + a + " has " + entries + " ledger entries; reservation " + r);
            }
            if (a.status() == 200) {
                answeredUnits.merge(a.reservationId() + " " + a.action(), 1, Integer::sum);
            }
        }
        answeredUnits.forEach((what, units) -> {
            String[] parts = what.split(" ");
            Reservation r = db.reservations().get(parts[0]);
            int recorded = r == null ? 0
                    : (parts[1].equals("fulfil") ? r.fulfilled() : r.released()).values().stream().mapToInt(Integer::intValue).sum();
            if (recorded < units) {
                violation(Rule.ANSWERS,
                        "reservation " + parts[0] + ": " + units + " units answered " + parts[1] + " but its lines record " + recorded);
            }
        });
    }

    /** Edits as the clients saw them: a 200 left an updated event, a refusal was for a reason an edit may be refused for. */
    private void edits(Snapshot db, ClientLog clients) {
        for (ClientLog.EditAnswer a : clients.editAnswers) {
            boolean updated = db.events().stream().anyMatch(e -> e.aggregateId().equals(a.reservationId()) && e.kind().equals("updated"));
            boolean agrees = switch (a.status()) {
                case 200 -> updated;
                case 409 -> "invalid-reservation-state".equals(a.problem()) || "insufficient-stock".equals(a.problem())
                        || "idempotency-request-in-progress".equals(a.problem());
                case 412 -> "precondition-failed".equals(a.problem());
                case 0, 429, 502, 503, 504 -> true;
                default -> false;
            };
            if (!agrees) {
                violation(Rule.ANSWERS, "edit " + a + " (updated events: " + updated + ")");
            }
        }
    }
}
