package dev.stockhold.chaos;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/** Everything the clients asked for and every answer they actually received. The checker's view of the clients. */
final class ClientLog {

    /**
     * What a client sends under one Idempotency-Key: always the same body. {@code allocation}: "split", "partial" or
     * null (whole).
     */
    record Intent(String key, String body, Map<String, Integer> lines, boolean deferred, String allocation) {

        Intent(String key, String body, Map<String, Integer> lines) {
            this(key, body, lines, false, null);
        }

        /** Whether a reservation may hold less of a line than asked: a partial request's lines get what there was. */
        boolean partial() {
            return "partial".equals(allocation);
        }
    }

    /** An answer to POST /v1/reservations. {@code problem} is the problem type's slug, if any. */
    record ReserveAnswer(String key, int status, String reservationId, String problem, boolean replayed) {
    }

    /** An answer to confirm, cancel or extend; {@code resultStatus} is the reservation status in a 200 body. */
    record TransitionAnswer(String reservationId, String action, int status, String resultStatus, String problem) {
    }

    /**
     * An answer to a fulfilment or release of one unit of {@code sku} (a new key each): {@code action} fulfil or release,
     * {@code problem} the slug of a refusal.
     */
    record SettleAnswer(String key, String reservationId, String action, String sku, int status, String problem) {
    }

    /**
     * A PATCH of a reservation's lines (a new key each): {@code lines} what it asked for by sku; {@code status} 0 when no
     * answer came.
     */
    record EditAnswer(String key, String reservationId, Map<String, Integer> lines, int status, String problem) {
    }

    /** An admin adjustment under one Idempotency-Key: always the same record and delta. */
    record Adjustment(String key, String sku, String location, long delta) {
    }

    /** An answer to an adjustment; {@code version} is the record's version in a 200 body. */
    record AdjustAnswer(String key, int status, long version, String problem, boolean replayed) {
    }

    /** A batch of adjustments under one Idempotency-Key: always the same records and deltas, all or nothing. */
    record Batch(String key, java.util.List<Adjustment> items) {
    }

    /** An answer to a batch of adjustments. */
    record BatchAnswer(String key, int status, String problem, boolean replayed) {
    }

    /**
     * A warehouse count under one Idempotency-Key, always the same body; {@code skus} the records it lists. An answer
     * records {@code changed}: how many records it says were applied with a drift (each one ledger entry).
     */
    record Count(String key, String location, String body, java.util.List<String> skus) {
    }

    /** An answer to a count; {@code changed} is -1 when it is not a 200. */
    record CountAnswer(String key, int status, int changed, String problem, boolean replayed) {
    }

    /** An answer to a compare-and-set: PUT on hand with If-Match; {@code version} is the new version in a 200 body. */
    record SetAnswer(String sku, String location, String ifMatch, long onHand, int status, long version, String problem) {
    }

    enum Operation {
        RESERVE,
        RETRY,
        CONCURRENT_DUPLICATE,
        DROPPED_CONNECTION,
        CONFIRM,
        CANCEL,
        EXTEND,
        LIST,
        ADJUST,
        COMPARE_AND_SET,
        SETTLE,
        EDIT,
        BATCH_ADJUST,
        COUNT,
        SHIP,
        RECEIVE_TRANSFER,
        CANCEL_TRANSFER,
        CHANNEL_RESERVE,
        PURCHASE_ORDER,
        BACKORDER,
        RECEIVE_ORDER,
        CANCEL_BACKORDER,
        KIT_RESERVE
    }

    final Map<String, Adjustment> adjustments = new ConcurrentHashMap<>();
    final Queue<AdjustAnswer> adjustAnswers = new ConcurrentLinkedQueue<>();
    final Queue<SetAnswer> setAnswers = new ConcurrentLinkedQueue<>();
    final Map<String, Batch> batches = new ConcurrentHashMap<>();
    final Queue<BatchAnswer> batchAnswers = new ConcurrentLinkedQueue<>();
    final Map<String, Count> counts = new ConcurrentHashMap<>();
    final Queue<CountAnswer> countAnswers = new ConcurrentLinkedQueue<>();
    /**
     * Compare-and-sets whose outcome is unknown: no answer came, or the answer said the commit was cut off (503
     * outcome unknown). They may or may not have been applied.
     */
    final LongAdder unknownSets = new LongAdder();

    /** A walk of GET /v1/reservations pages that saw an item twice or out of order (must stay empty). */
    final Queue<String> listingAnomalies = new ConcurrentLinkedQueue<>();
    /** Pages read by the listing clients. */
    final LongAdder listedPages = new LongAdder();

    /** Keys of reservation requests sent by the clients of channels, backorders and kits (not in {@link #intents}). */
    final Set<String> featureKeys = ConcurrentHashMap.newKeySet();
    /** Answers a feature's client did not expect from a correct service, described (must stay empty). */
    final Queue<String> unexpected = new ConcurrentLinkedQueue<>();

    final Map<String, Intent> intents = new ConcurrentHashMap<>();
    final Queue<ReserveAnswer> reserveAnswers = new ConcurrentLinkedQueue<>();
    /** How many split and partial requests were answered 201, and how many partial ones got less than they asked. */
    String allocations() {
        Set<String> created = new HashSet<>();
        reserveAnswers.stream().filter(a -> a.status() == 201).forEach(a -> created.add(a.key()));
        long split = created.stream().filter(k -> intents.containsKey(k) && "split".equals(intents.get(k).allocation())).count();
        long partial = created.stream().filter(k -> intents.containsKey(k) && intents.get(k).partial()).count();
        long shortOnes = partialHeld.entrySet().stream().filter(e -> !e.getValue().equals(intents.get(e.getKey()).lines())).count();
        return split + " / " + partial + " (" + shortOnes + ")";
    }

    /** The units per sku a 201 to a partial request said it holds, by key (skus that got none left out). */
    final Map<String, Map<String, Integer>> partialHeld = new ConcurrentHashMap<>();
    final Queue<TransitionAnswer> transitionAnswers = new ConcurrentLinkedQueue<>();
    final Queue<SettleAnswer> settleAnswers = new ConcurrentLinkedQueue<>();
    final Queue<EditAnswer> editAnswers = new ConcurrentLinkedQueue<>();
    /** Keys with at least one attempt whose outcome the client never learned (dropped, reset, timed out). */
    final Set<String> unansweredAttempts = ConcurrentHashMap.newKeySet();
    final Map<Operation, LongAdder> operations = new EnumMap<>(Operation.class);
    final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    final LongAdder noAnswer = new LongAdder();
    /** 503 answers saying a commit was cut off and its outcome is unknown (the key is then retried). */
    final LongAdder outcomeUnknown = new LongAdder();
    /** Per replica, the longest a request took to be answered or to fail (ms): nothing may hang. */
    final Map<String, LongAccumulator> slowest = new ConcurrentHashMap<>();
    /** Connections refused by a dead replica: nothing was sent, the client went to the other one. */
    final LongAdder refused = new LongAdder();

    ClientLog() {
        for (Operation op : Operation.values()) {
            operations.put(op, new LongAdder());
        }
    }

    void count(Operation op) {
        operations.get(op).increment();
    }

    void answered(int status) {
        statuses.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    long requests() {
        return operations.values().stream().mapToLong(LongAdder::sum).sum()
                + operations.get(Operation.CONCURRENT_DUPLICATE).sum(); // a concurrent duplicate is two requests
    }
}
