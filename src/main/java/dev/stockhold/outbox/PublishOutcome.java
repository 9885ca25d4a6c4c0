package dev.stockhold.outbox;

import java.util.Map;
import java.util.UUID;

/**
 * What the broker made of a batch. Either it answered, event by event ({@link Answered}: a failure there is the
 * event's own and counts an attempt), or it could not be reached at all ({@link Unreachable}: no event is to blame,
 * none is charged an attempt, and the relay pauses until the broker answers a probe).
 */
public sealed interface PublishOutcome {

    /** The broker answered: every event of the batch not in {@code failures} was confirmed. */
    record Answered(Map<UUID, PublishFailure> failures) implements PublishOutcome {
        public static Answered allConfirmed() {
            return new Answered(Map.of());
        }
    }

    /** Connection refused or lost, or no confirm for the batch within the publish timeout. */
    record Unreachable(String reason, String message) implements PublishOutcome {
        public String describe() {
            return reason + ": " + message;
        }
    }
}
