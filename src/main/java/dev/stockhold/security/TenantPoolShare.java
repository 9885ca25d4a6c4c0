package dev.stockhold.security;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.stockhold.StockholdConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Each tenant's requests hold at most {@code stockhold.limits.tenant-pool-share} of the connection pool in this replica
 * at once, so one tenant's heavy requests (twenty 500-record batches) never take the connections another tenant's read
 * needs. A request over its tenant's share waits, without a thread, in its tenant's queue (first come, first served) until
 * one of the tenant's own requests hands its share on, or {@code pool-share-wait} passes (Admission answers 503). A
 * share is held from admission until the answer is handed over (HandOver), which is when a request's database work is
 * done.
 */
@Singleton
public class TenantPoolShare {

    private final int share;
    private final long waitMillis;
    private final Map<String, Queue> queues = new ConcurrentHashMap<>();

    @jakarta.inject.Inject
    TenantPoolShare(StockholdConfig config, @ConfigProperty(name = "quarkus.datasource.jdbc.max-size", defaultValue = "20") int poolSize) {
        this(config.limits().tenantPoolShare() <= 0 ? 0 : Math.max(1, (int) (poolSize * config.limits().tenantPoolShare())),
                config.limits().poolShareWait());
    }

    TenantPoolShare(int share, Duration wait) {
        this.share = share;
        this.waitMillis = Math.max(1, wait.toMillis());
    }

    /** Connections one tenant may hold at once; 0 when the share is off. */
    public int share() {
        return share;
    }

    /**
     * Calls {@code granted} with the release of the tenant's share, at once or (on the caller's context) when the tenant
     * has one to spare; or {@code timedOut} when none came within the wait.
     */
    void acquire(Vertx vertx, String tenant, Consumer<Runnable> granted, Runnable timedOut) {
        if (share <= 0) {
            granted.accept(() -> {
            });
            return;
        }
        Queue queue = queues.computeIfAbsent(tenant, t -> new Queue());
        Waiter waiter = new Waiter(queue, granted, Vertx.currentContext());
        if (queue.enter(waiter)) {
            waiter.grant();
            return;
        }
        waiter.timer = vertx.setTimer(waitMillis, id -> {
            if (queue.leave(waiter)) {
                timedOut.run();
            }
        });
    }

    /** A tenant's share: how much of it is in use, and who waits for it. */
    private final class Queue {
        private int inUse;
        private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();

        /** Takes a share now, or queues the waiter. */
        synchronized boolean enter(Waiter waiter) {
            if (inUse < share) {
                inUse++;
                return true;
            }
            waiting.add(waiter);
            return false;
        }

        /** Takes the waiter out of the queue; false when it was granted meanwhile. */
        synchronized boolean leave(Waiter waiter) {
            return waiting.remove(waiter);
        }

        /** Hands a released share to the next waiter, or returns it. */
        void release() {
            Waiter next;
            synchronized (this) {
                next = waiting.poll();
                if (next == null) {
                    inUse--;
                    return;
                }
            }
            next.grantFromQueue();
        }
    }

    private static final class Waiter {
        private final Queue queue;
        private final Consumer<Runnable> granted;
        private final Context context;
        private volatile long timer = -1;

        Waiter(Queue queue, Consumer<Runnable> granted, Context context) {
            this.queue = queue;
            this.granted = granted;
            this.context = context;
        }

        void grant() {
            AtomicBoolean released = new AtomicBoolean();
            granted.accept(() -> {
                if (released.compareAndSet(false, true)) {
                    queue.release();
                }
            });
        }

        void grantFromQueue() {
            if (timer >= 0 && context != null) {
                context.owner().cancelTimer(timer);
            }
            if (context == null) {
                grant();
            } else {
                context.runOnContext(v -> grant());
            }
        }
    }
}
