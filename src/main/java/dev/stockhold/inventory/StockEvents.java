package dev.stockhold.inventory;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.events.EventType;
import dev.stockhold.events.StockChangedV1;
import dev.stockhold.events.StockDepletedV1;
import dev.stockhold.events.StockLowV1;
import dev.stockhold.events.StockReplenishedV1;
import dev.stockhold.outbox.OutboxWriter;

/**
 * The stock events (I4), written in the transaction of the change they describe: {@code stock.changed} for every set,
 * adjustment or fulfilment; {@code stock.depleted} when a record's reservable (available above its safety stock) reaches
 * 0 and {@code stock.replenished} when it rises from 0; {@code stock.low} when available falls to the low-stock threshold
 * or below; whatever moved it. A record's events share one aggregate id, derived from (tenant, sku, location), so the
 * relay publishes them in the order they were written (I6). Not intercepted itself: every write goes through
 * {@link OutboxWriter}, which only joins a running transaction.
 */
@ApplicationScoped
class StockEvents {

    @Inject
    OutboxWriter outbox;

    /** The aggregate id of a stock record's events: the same for every event of one (tenant, sku, location). */
    static UUID aggregateId(String tenantId, StockKey key) {
        return UUID.nameUUIDFromBytes((tenantId + "/" + key.sku() + "/" + key.location()).getBytes(StandardCharsets.UTF_8));
    }

    /** A change of on hand (an admin set or adjustment, or a fulfilment): stock.changed, then the crossings if any. */
    void changed(String tenantId, StockChangedV1.Kind kind, StockRecord before, StockRecord after, long delta, String reason,
            Instant now) {
        List<OutboxWriter.DomainEvent> events = new ArrayList<>();
        events.add(changedEvent(tenantId, kind, after, delta, reason));
        events.addAll(crossed(tenantId, before, after));
        outbox.write(tenantId, events, now);
    }

    /** Records whose safety stock or threshold changed: the crossings those changes made, if any. */
    void limited(String tenantId, List<StockRecords.Change> changes, Instant now) {
        List<OutboxWriter.DomainEvent> events = new ArrayList<>();
        changes.forEach(c -> events.addAll(crossed(tenantId, c.before(), c.after())));
        if (!events.isEmpty()) {
            outbox.write(tenantId, events, now);
        }
    }

    /**
     * Records moved by a reservation's {@link Move}: a stock.changed per record where the move reports one (a fulfilment:
     * on hand and committed fall alike, so available, and any crossing, stays as it was); any other move, the crossings
     * where available moved by the move's sign times the record's quantity. Most moves cross nothing, and then nothing is written at all.
     */
    void moved(String tenantId, Move move, List<StockRecord> moved, Map<StockKey, Long> quantities, Instant now) {
        List<OutboxWriter.DomainEvent> events = new ArrayList<>();
        for (StockRecord after : moved) {
            long quantity = quantities.get(after.key());
            if (move.changed != null) {
                events.add(changedEvent(tenantId, move.changed, after, -quantity, null));
            } else if (move.availableSign != 0) {
                events.addAll(crossed(tenantId, after.withAvailableMovedBy(-move.availableSign * quantity), after));
            }
        }
        if (!events.isEmpty()) {
            outbox.write(tenantId, events, now);
        }
    }

    private static OutboxWriter.DomainEvent changedEvent(String tenantId, StockChangedV1.Kind kind, StockRecord after, long delta,
            String reason) {
        return event(EventType.STOCK_CHANGED, tenantId, after, new StockChangedV1(after.sku(), after.location(), after.onHand(),
                after.held(), after.available(), after.version(), delta, reason, after.committed(), kind));
    }

    private static List<OutboxWriter.DomainEvent> crossed(String tenantId, StockRecord before, StockRecord after) {
        List<OutboxWriter.DomainEvent> events = new ArrayList<>();
        Long safety = after.safetyStock();
        Long reservable = after.reservable();
        if (before.reservable() > 0 && after.reservable() == 0) {
            events.add(event(EventType.STOCK_DEPLETED, tenantId, after, new StockDepletedV1(after.sku(), after.location(), after.onHand(),
                    after.held(), after.available(), after.version(), after.committed(), safety, reservable)));
        } else if (before.reservable() == 0 && after.reservable() > 0) {
            events.add(event(EventType.STOCK_REPLENISHED, tenantId, after, new StockReplenishedV1(after.sku(), after.location(),
                    after.onHand(), after.held(), after.available(), after.version(), after.committed(), safety, reservable)));
        }
        if (!before.low() && after.low()) {
            events.add(event(EventType.STOCK_LOW, tenantId, after, new StockLowV1(after.sku(), after.location(), after.onHand(),
                    after.held(), after.committed(), after.available(), after.lowStockThreshold(), after.safetyStock(), after.reservable(),
                    after.version())));
        }
        return events;
    }

    /** A stock record's event: partition key (the Kafka key) tenant/sku/location, subject sku@location. */
    private static OutboxWriter.DomainEvent event(EventType type, String tenantId, StockRecord record, Record data) {
        return new OutboxWriter.DomainEvent(type, aggregateId(tenantId, record.key()), partitionKey(tenantId, record.key()),
                record.key().subject(), data);
    }

    /** The partition key of a stock record's events. */
    static String partitionKey(String tenantId, StockKey key) {
        return tenantId + "/" + key.sku() + "/" + key.location();
    }
}
