package dev.stockhold.outbox;

import java.util.List;

import io.quarkus.logging.Log;

/** Dev mode without a broker: every CloudEvent is printed, so quarkus:dev still shows the whole flow. */
public class LoggingPublisher implements EventPublisher {

    @Override
    public Sent send(List<ClaimedRow> batch) {
        batch.forEach(event -> Log.infof("CloudEvent (log publisher, no broker configured) %s", event.payload()));
        return Sent.answered(PublishOutcome.Answered.allConfirmed());
    }

    @Override
    public boolean probe() {
        return true;
    }

    @Override
    public String target() {
        return "log";
    }
}
