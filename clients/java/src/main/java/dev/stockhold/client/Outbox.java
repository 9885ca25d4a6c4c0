package dev.stockhold.client;

import java.util.List;
import java.util.UUID;

import dev.stockhold.client.model.DeadEvent;
import dev.stockhold.client.model.OutboxBulkRequeued;
import dev.stockhold.client.model.OutboxRequeueFilter;
import dev.stockhold.client.model.OutboxRequeued;
import dev.stockhold.client.model.OutboxSummary;

/** The relay's backlog and dead events (role {@code ops}). */
public final class Outbox {

    private final Calls calls;

    Outbox(Calls calls) {
        this.calls = calls;
    }

    public OutboxSummary summary() {
        return calls.send(Request.of(Operation.OUTBOX_SUMMARY), OutboxSummary.class).value();
    }

    public List<DeadEvent> dead(int limit) {
        return List.of(calls.send(Request.of(Operation.OUTBOX_DEAD).query("limit", limit), DeadEvent[].class).value());
    }

    public OutboxRequeued requeue(UUID id) {
        return calls.send(Request.of(Operation.OUTBOX_REQUEUE, id.toString()), OutboxRequeued.class).value();
    }

    public OutboxBulkRequeued requeueAll(OutboxRequeueFilter filter) {
        return calls.send(Request.of(Operation.OUTBOX_REQUEUE_ALL).body(filter), OutboxBulkRequeued.class).value();
    }
}
