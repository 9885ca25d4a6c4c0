package dev.stockhold.reservation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Hot-row group updates inside one replica (the idea of AliSQL's and PolarDB's hot-row batching). Single-line
 * reservations of the same (tenant, sku) that arrive while another one is being committed wait in that sku's lane; the
 * next one to lead takes them all and commits them together, with one decrement of their sum, so a hot sku pays one
 * row lock and one commit per group instead of one per request. Requests of a quiet sku find the lane free and go
 * alone, unchanged. A lane is one of a fixed set of stripes: skus sharing a stripe queue in it but never share a group.
 */
final class SkuLanes {

    /** One waiting request; its result is set by whichever thread led the group it was in. */
    static final class Ticket<T> {
        final String tenantId;
        final String sku;
        final T request;
        private volatile boolean done;
        private volatile Object outcome;   // what the request answers, or ALONE

        Ticket(String tenantId, String sku, T request) {
            this.tenantId = tenantId;
            this.sku = sku;
            this.request = request;
        }

        /** Sets this ticket's outcome: what the request answers, or {@link #ALONE} to have it run on its own. */
        void complete(Object outcome) {
            this.outcome = outcome;
            this.done = true;
        }

        boolean sameSku(Ticket<?> other) {
            return sku.equals(other.sku) && tenantId.equals(other.tenantId);
        }
    }

    /** The outcome that sends a request back to run on its own: its group could not commit as a whole. */
    static final Object ALONE = new Object();

    private static final class Lane {
        final ArrayDeque<Ticket<?>> waiting = new ArrayDeque<>();
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
     * Queues the ticket and returns its outcome: either this thread leads and {@code commit} completes every ticket of
     * its group (the ticket's own included), or another leader already did.
     */
    <T> Object submit(Ticket<T> ticket, Consumer<List<Ticket<T>>> commit) {
        Lane lane = lanes.get(Math.floorMod(31 * ticket.tenantId.hashCode() + ticket.sku.hashCode(), lanes.size()));
        List<Ticket<T>> group;
        boolean interrupted = false;
        synchronized (lane) {
            lane.waiting.add(ticket);
            while (lane.busy && !ticket.done) {
                try {
                    lane.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                    if (lane.waiting.remove(ticket)) {
                        // not taken by a leader yet: leave the lane and let the caller run alone
                        Thread.currentThread().interrupt();
                        return ALONE;
                    }
                    // taken: its group is committing, so wait for the outcome rather than run it twice
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (ticket.done) {
                return ticket.outcome;
            }
            lane.busy = true;
            group = take(lane.waiting, ticket);
        }
        try {
            commit.accept(group);
        } finally {
            for (Ticket<T> t : group) {
                if (!t.done) {
                    t.complete(ALONE);
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
    @SuppressWarnings("unchecked")   // every caller of one SkuLanes submits the same T
    private <T> List<Ticket<T>> take(ArrayDeque<Ticket<?>> waiting, Ticket<T> leader) {
        List<Ticket<T>> group = new ArrayList<>();
        group.add(leader);
        waiting.remove(leader);
        for (Iterator<Ticket<?>> it = waiting.iterator(); it.hasNext() && group.size() < maxGroup;) {
            Ticket<?> t = it.next();
            if (t.sameSku(leader)) {
                group.add((Ticket<T>) t);
                it.remove();
            }
        }
        return group;
    }
}
