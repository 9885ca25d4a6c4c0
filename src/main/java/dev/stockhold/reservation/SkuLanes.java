package dev.stockhold.reservation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Hot-row group updates inside one replica (the idea of AliSQL's and PolarDB's hot-row batching). Single-line
 * reservations of the same (tenant, sku) that arrive while another one is being committed wait in that sku's lane; the
 * next one to lead takes them all and commits them together, with one decrement of their sum, so a hot sku pays one
 * row lock and one commit per group instead of one per request. Requests of a quiet sku find the lane free and go
 * alone, unchanged. A lane is one of a fixed set of stripes: skus sharing a stripe queue in it but never share a group.
 *
 * @param <T> the request a ticket carries
 * @param <R> what a request answers
 */
final class SkuLanes<T, R> {

    /** What a request gets from its lane. */
    sealed interface Outcome<R> {
        /** The answer: this one, or the failure thrown, or (for {@link Alone}) what running on its own answers. */
        R resolve(Supplier<R> alone);
    }

    /** Its group committed (or its key was replayed in the group): this is its answer. */
    record Answered<R>(R answer) implements Outcome<R> {
        @Override
        public R resolve(Supplier<R> alone) {
            return answer;
        }
    }

    /** Its group's commit failed, or its outcome is unknown, or replaying its key failed: it fails with this. */
    record Failed<R>(RuntimeException failure) implements Outcome<R> {
        @Override
        public R resolve(Supplier<R> alone) {
            throw failure;
        }
    }

    /** Nothing of its group was committed: the request runs on its own. */
    record Alone<R>() implements Outcome<R> {
        @Override
        public R resolve(Supplier<R> alone) {
            return alone.get();
        }
    }

    /** One waiting request; its outcome is set by whichever thread led the group it was in. */
    static final class Ticket<T, R> {
        final String tenantId;
        final String sku;
        final T request;
        private volatile Outcome<R> outcome;

        Ticket(String tenantId, String sku, T request) {
            this.tenantId = tenantId;
            this.sku = sku;
            this.request = request;
        }

        void complete(Outcome<R> result) {
            this.outcome = result;
        }

        boolean done() {
            return outcome != null;
        }

        boolean sameSku(Ticket<?, ?> other) {
            return sku.equals(other.sku) && tenantId.equals(other.tenantId);
        }
    }

    private static final class Lane {
        final ArrayDeque<Ticket<?, ?>> waiting = new ArrayDeque<>();
        boolean busy;
    }

    private final List<Lane> lanes = new ArrayList<>();
    private final int maxGroup;

    SkuLanes(int stripes, int maxGroup) {
        for (int i = 0; i < stripes; i++) {
            lanes.add(new Lane());
        }
        this.maxGroup = maxGroup;
    }

    /**
     * Queues the ticket and returns its outcome: either this thread leads and {@code commit} completes the tickets of
     * its group (the ticket's own included; any it leaves open run {@link Alone}), or another leader already did.
     */
    Outcome<R> submit(Ticket<T, R> ticket, Consumer<List<Ticket<T, R>>> commit) {
        Lane lane = lanes.get(Math.floorMod(31 * ticket.tenantId.hashCode() + ticket.sku.hashCode(), lanes.size()));
        List<Ticket<T, R>> group;
        boolean interrupted = false;
        synchronized (lane) {
            lane.waiting.add(ticket);
            while (lane.busy && !ticket.done()) {
                try {
                    lane.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (lane.waiting.remove(ticket)) {
                        // not taken by a leader yet: leave the lane and let the caller run alone
                        Thread.currentThread().interrupt();
                        return new Alone<>();
                    }
                    // taken: its group is committing, so wait for the outcome rather than run it twice
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (ticket.done()) {
                return ticket.outcome;
            }
            lane.busy = true;
            group = take(lane.waiting, ticket);
        }
        try {
            commit.accept(group);
        } finally {
            for (Ticket<T, R> t : group) {
                if (!t.done()) {
                    t.complete(new Alone<>());
                }
            }
            synchronized (lane) {
                lane.busy = false;
                lane.notifyAll();
            }
        }
        return ticket.outcome;
    }

    /** Requests waiting in all lanes (not those being committed). */
    int queued() {
        int n = 0;
        for (Lane lane : lanes) {
            synchronized (lane) {
                n += lane.waiting.size();
            }
        }
        return n;
    }

    /** The leader's ticket and, in arrival order, up to maxGroup - 1 waiting tickets for the same sku. */
    @SuppressWarnings("unchecked") // every caller of one SkuLanes submits tickets of the same T and R
    private List<Ticket<T, R>> take(ArrayDeque<Ticket<?, ?>> waiting, Ticket<T, R> leader) {
        List<Ticket<T, R>> group = new ArrayList<>();
        group.add(leader);
        waiting.remove(leader);
        for (Iterator<Ticket<?, ?>> it = waiting.iterator(); it.hasNext() && group.size() < maxGroup;) {
            Ticket<?, ?> t = it.next();
            if (t.sameSku(leader)) {
                group.add((Ticket<T, R>) t);
                it.remove();
            }
        }
        return group;
    }
}
