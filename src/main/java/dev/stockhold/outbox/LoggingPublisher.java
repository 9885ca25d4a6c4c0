package dev.stockhold.outbox;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.quarkus.logging.Log;

/** Dev mode without a broker: every CloudEvent is printed, so quarkus:dev still shows the whole flow. */
public class LoggingPublisher implements EventPublisher {

    @Override
    public Map<UUID, PublishFailure> publish(List<OutboxEvent> batch, Duration timeout) {
        batch.forEach(event -> Log.infof("CloudEvent (log publisher, no broker configured) %s", event.payload()));
        return Map.of();
    }

    @Override
    public boolean lastPublishReachedBroker() {
        return true;
    }

    @Override
    public String target() {
        return "log";
    }
}
