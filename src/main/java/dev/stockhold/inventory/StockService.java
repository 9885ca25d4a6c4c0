package dev.stockhold.inventory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.OutcomeLog;
import dev.stockhold.events.StockChangedV1;
import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.idempotency.IdempotencyKeyReusedException;
import dev.stockhold.idempotency.OncePerKey;
import dev.stockhold.idempotency.RequestInProgressException;
import dev.stockhold.idempotency.StoredResponse;
import dev.stockhold.web.Cursors;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemType;
import dev.stockhold.web.ValidationFailedException;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What admins do to stock: sets (absolute, optionally compare-and-set on the version) and adjustments (deltas, once per
 * Idempotency-Key). Each write locks its record, changes only on hand (I7), raises the version and writes its
 * stock.changed event in the same transaction (I4).
 */
@ApplicationScoped
@Transactional
public class StockService {

    static final List<String> ADJUSTMENT_OUTCOMES = List.of("applied", "stock_below_held", "replayed", "key_reused", "in_progress");

    private final StockRecords records;
    private final LocationRepository locations;
    private final MovementLedger ledger;
    private final StockEvents events;
    private final OncePerKey once;
    private final ObjectMapper mapper;
    private final MeterRegistry registry;
    private final Cursors cursors;
    private final java.time.Clock clock;
    /** How far ahead of this service's clock a warehouse's clock may be when it stamps a count. */
    static final java.time.Duration COUNT_CLOCK_SKEW = java.time.Duration.ofSeconds(60);
    private final DistributionSummary drift;

    StockService(StockRecords records, LocationRepository locations, MovementLedger ledger, StockEvents events, OncePerKey once,
            ObjectMapper mapper, MeterRegistry registry,
            Cursors cursors, java.time.Clock clock) {
        this.records = records;
        this.locations = locations;
        this.ledger = ledger;
        this.events = events;
        this.once = once;
        this.cursors = cursors;
        this.clock = clock;
        this.mapper = mapper;
        this.registry = registry;
        this.drift = DistributionSummary.builder("stockhold.stock.snapshot.drift").baseUnit("units")
                .description("Units a warehouse count corrected on hand by, per record it changed").publishPercentileHistogram()
                .register(registry);
        // every outcome's series exists from the start, so rates over it are defined before the first adjustment
        ADJUSTMENT_OUTCOMES.forEach(outcome -> registry.counter("stockhold.stock.adjustments", "outcome", outcome));
    }

    /** v1's PUT /v1/items/{sku}: the free-to-reserve quantity at {@code default}, so on hand = available + held. */
    public ItemView setAvailable(String tenantId, String sku, long available, Source source) {
        StockKey at = new StockKey(sku, StockKey.DEFAULT_LOCATION);
        StockRecord before = lockOrCreate(tenantId, at);
        write(tenantId, before, before, available + before.promised(), source);
        return item(tenantId, sku, null);
    }

    /**
     * An absolute set of on hand, and of the record's own safety stock and low-stock threshold where given (null keeps
     * them); with If-Match, only if the record still has that version (compare-and-set).
     */
    public StockRecord set(String tenantId, StockKey at, long onHand, Long safetyStock, Long lowStockThreshold, IfMatch ifMatch,
            Source source) {
        StockRecord before;
        if (ifMatch == null) {
            before = lockOrCreate(tenantId, at);
        } else {
            before = records.lock(tenantId, at).orElse(null);
            if (!ifMatch.matches(before)) {
                throw new PreconditionFailedException(at, before == null ? null : before.etag());
            }
        }
        if (safetyStock != null || lowStockThreshold != null) {
            StockRecord limited = records.limit(tenantId, at, safetyStock, lowStockThreshold);
            return write(tenantId, before, limited, onHand, source);
        }
        return write(tenantId, before, before, onHand, source);
    }

    /** @param current the locked record as it is now (before, with any new limits): what the set starts from */
    private StockRecord write(String tenantId, StockRecord before, StockRecord current, long onHand, Source source) {
        StockRecord after = records.set(tenantId, current, onHand, source)
                .orElseThrow(() -> new StockBelowHeldException(before.key(), before.promised(), onHand));
        events.changed(tenantId, StockChangedV1.Kind.SET, before, after, after.onHand() - before.onHand(), null, now());
        OutcomeLog.stock("set", tenantId, null, after.key().subject() + " onHand=" + after.onHand() + " version=" + after.version());
        return after;
    }

    /**
     * Applies the delta once per (tenant, key). The key is claimed first; the outcome (200 with the record as this
     * adjustment left it, or 409 stock-below-held) is stored in the same transaction, and a refusal rolls the rest back.
     */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply adjust(String tenantId, IdempotencyKey key, StockKey at, AdjustmentRequest request, String actor) {
        return counted("adjustment-", tenantId, key, at.subject() + " delta=" + request.delta(),
                () -> once.run(tenantId, key, request.fingerprint(at), null, () -> applyAdjustment(tenantId, key, at, request, actor)));
    }

    /**
     * Applies every delta of the batch once per (tenant, key), all or nothing: the records are locked in {@link StockKey}
     * order (so batches over the same records cannot deadlock), each gets its ledger entry and stock.changed event, and
     * the first that would fall below held and committed refuses the whole batch (409 stock-below-held, stored).
     */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply adjustAll(String tenantId, IdempotencyKey key, BatchAdjustmentRequest request, String actor) {
        return counted("batch-adjustment-", tenantId, key, request.adjustments().size() + " records",
                () -> once.run(tenantId, key, request.fingerprint(), null, () -> {
                    List<StockRecord> after = new ArrayList<>();
                    for (BatchAdjustmentRequest.Adjustment a : request.inLockOrder()) {
                        after.add(applied(tenantId, key, a.key(), a.request(), actor));
                    }
                    return StoredResponse.ok(mapper, new StockPage(after, null), null, null);
                }));
    }

    /** An adjustment's outcome, counted in stockhold.stock.adjustments and logged, whatever it was. */
    private OncePerKey.Reply counted(String logPrefix, String tenantId, IdempotencyKey key, String what, Supplier<OncePerKey.Reply> run) {
        try {
            OncePerKey.Reply reply = run.get();
            String outcome = reply.replayed() ? "replayed" : reply.response().status() == 200 ? "applied" : "stock_below_held";
            count(outcome);
            OutcomeLog.stock(logPrefix + outcome, tenantId, key.value(), what);
            return reply;
        } catch (IdempotencyKeyReusedException e) {
            count("key_reused");
            throw e;
        } catch (RequestInProgressException e) {
            count("in_progress");
            throw e;
        }
    }

    /**
     * Applies a warehouse count once per (tenant, key): each covered record (locked in sku order) gets on hand = the
     * count plus what its ledger moved since {@code asOf}, so changes Stockhold made after the count (fulfilments,
     * sales, adjustments) are not undone, and held and committed are never touched. A record that took a count as new
     * or newer is skipped (stale); one that would fall below held and committed is skipped too (below-held).
     */
    @Transactional(Transactional.TxType.NEVER)
    public OncePerKey.Reply count(String tenantId, IdempotencyKey key, String location, SnapshotRequest request, String actor) {
        Instant asOf = request.asOf() != null ? request.countedAt() : MovementQuery.watermarkTime(cursors, tenantId, location,
                request.asOfCursor());
        if (asOf.isAfter(clock.instant().plus(COUNT_CLOCK_SKEW))) {
            // a count from the future would be newer than every later one: each would be stale, with no way back
            throw new ValidationFailedException("asOf", "is in the future; a count is as of the time it was taken (at most "
                    + COUNT_CLOCK_SKEW.toSeconds() + " s ahead of this service's clock)");
        }
        OncePerKey.Reply reply = once.run(tenantId, key, request.fingerprint(location, asOf), null, () -> {
            java.util.Map<String, Long> counts = new java.util.HashMap<>();
            request.records().forEach(c -> counts.put(c.sku(), c.onHand()));
            List<SnapshotView.Result> results = new ArrayList<>();
            Source source = new Source(actor, null, key.value(), "snapshot", null);
            locations.ensure(tenantId, location);
            for (StockRecords.Counted locked : records.lockForCount(tenantId, location, request.inLockOrder().stream()
                    .map(SnapshotRequest.Count::sku).toList(), request.full())) {
                results.add(applyCount(tenantId, locked, counts.get(locked.record().sku()), asOf, source));
            }
            return StoredResponse.ok(mapper, new SnapshotView(location, asOf, request.full() ? "full" : "partial", results), null, null);
        });
        OutcomeLog.stock("snapshot" + (reply.replayed() ? "-replayed" : ""), tenantId, key.value(),
                location + " records=" + request.records().size());
        return reply;
    }

    /** @param listed the units counted, or null for a record a full count did not list (counted as 0) */
    private SnapshotView.Result applyCount(String tenantId, StockRecords.Counted locked, Long listed, Instant asOf,
            Source source) {
        StockRecord before = locked.record();
        long counted = listed == null ? 0 : listed;
        if (locked.countedAt() != null && !asOf.isAfter(locked.countedAt())) {
            return result(before, "stale", counted, before);
        }
        if (listed == null && before.promised() > 0) {
            return result(before, "kept", counted, before);
        }
        long onHand = counted + ledger.onHandMovedSince(tenantId, before.key(), asOf);
        if (onHand == before.onHand()) {
            records.counted(tenantId, before.key(), asOf);
            return result(before, "applied", counted, before);
        }
        StockRecord after = records.count(tenantId, before, onHand, asOf, source).orElse(null);
        if (after == null) {
            return result(before, "below-held", counted, before);
        }
        drift.record(Math.abs(after.onHand() - before.onHand()));
        events.changed(tenantId, StockChangedV1.Kind.SET, before, after, after.onHand() - before.onHand(), "snapshot", now());
        return result(before, "applied", counted, after);
    }

    private static SnapshotView.Result result(StockRecord before, String status, long counted, StockRecord after) {
        return new SnapshotView.Result(before.sku(), status, counted, before.onHand(), after.onHand(), after.onHand() - before.onHand());
    }

    private StoredResponse applyAdjustment(String tenantId, IdempotencyKey key, StockKey at, AdjustmentRequest request, String actor) {
        return StoredResponse.ok(mapper, applied(tenantId, key, at, request, actor), null, null);
    }

    /** One adjustment in the caller's transaction; a refusal ({@link dev.stockhold.idempotency.Refusal}) rolls it back. */
    private StockRecord applied(String tenantId, IdempotencyKey key, StockKey at, AdjustmentRequest request, String actor) {
        StockRecord before = lockOrCreate(tenantId, at);
        StockRecord after = records.adjust(tenantId, at, request.delta(),
                new Source(actor, null, key.value(), request.reason(), request.reference())).orElse(null);
        if (after == null) {
            throw once.refusal(Problem.of(ProblemType.STOCK_BELOW_HELD, new StockBelowHeldException(at, before.promised(),
                    before.onHand() + request.delta()).getMessage()));
        }
        events.changed(tenantId, StockChangedV1.Kind.ADJUST, before, after, request.delta(), request.reason(), now());
        return after;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public ItemView item(String tenantId, String sku, Channel channel) {
        List<StockRecord> found = records.ofSku(tenantId, sku);
        if (found.isEmpty()) {
            throw new ItemNotFoundException(sku);
        }
        return ItemView.of(sku, found, channel);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public StockRecord record(String tenantId, StockKey at) {
        return records.find(tenantId, at).orElseThrow(() -> new ItemNotFoundException(at));
    }

    /** A page of the record's movements; 404 item-not-found when the record does not exist. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Movement.Page movements(MovementQuery query) {
        records.find(query.tenantId(), query.at()).orElseThrow(() -> new ItemNotFoundException(query.at()));
        List<Movement> rows = ledger.page(query);
        String watermark = query.startsAtNewest() && !rows.isEmpty() ? query.watermark(rows.get(0), cursors) : null;
        if (rows.size() <= query.limit()) {
            return new Movement.Page(rows, null, watermark);
        }
        List<Movement> page = rows.subList(0, query.limit());
        return new Movement.Page(List.copyOf(page), query.encode(page.get(page.size() - 1), cursors), watermark);
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public StockPage list(StockQuery query) {
        List<StockRecord> rows = records.page(query);
        if (rows.size() <= query.limit()) {
            return new StockPage(rows, null);
        }
        List<StockRecord> page = rows.subList(0, query.limit());
        return new StockPage(List.copyOf(page), query.encode(page.get(page.size() - 1).key(), cursors));
    }

    /**
     * Creates or changes a location; defaults given (not null) move the records that take them, with the crossings that
     * makes (a lower safety stock can replenish a record, a higher threshold make it low).
     */
    public Location putLocation(String tenantId, String location, int priority, Long safetyStock, Long lowStockThreshold) {
        Location written = locations.put(tenantId, location, priority, safetyStock, lowStockThreshold);
        if (safetyStock != null || lowStockThreshold != null) {
            events.limited(tenantId, records.takeDefaults(tenantId, written), now());
        }
        return written;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Location.Page locations(String tenantId) {
        return new Location.Page(locations.all(tenantId));
    }

    /** Locks the record for an admin write, creating it (on hand 0, version 0) and its location first if absent. */
    private StockRecord lockOrCreate(String tenantId, StockKey at) {
        locations.ensure(tenantId, at.location());
        return records.lockOrCreate(tenantId, at);
    }

    private void count(String outcome) {
        registry.counter("stockhold.stock.adjustments", "outcome", outcome).increment();
    }

    private Instant now() {
        return dev.stockhold.Clocks.now(clock);
    }

}
