package dev.stockhold.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The consumer-side message log of debezium-examples' outbox (MessageLog.alreadyProcessed): an event is applied
 * only the first time its id is seen; redeliveries are counted and ignored.
 */
public final class DeduplicatingConsumer {

    private final Map<String, Integer> seen = new LinkedHashMap<>();
    private int applied;
    private int duplicates;

    /** @return true if the event was applied now, false if it had been applied before */
    public synchronized boolean apply(BrokerQueue.Delivery delivery) {
        int count = seen.merge(delivery.messageId(), 1, Integer::sum);
        if (count > 1) {
            duplicates++;
            return false;
        }
        applied++;
        return true;
    }

    public synchronized int applied() {
        return applied;
    }

    public synchronized int duplicates() {
        return duplicates;
    }
}
