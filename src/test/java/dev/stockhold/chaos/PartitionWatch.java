package dev.stockhold.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Asks a replica, while its links are cut and until it serves again after the heal, for its readiness and for a
 * database read, each in a loop of its own (a hanging read never delays the readiness probe), and summarises: when it
 * turned unready, when it first answered 503 with {@code Retry-After}, the slowest answer, and when it served again.
 */
final class PartitionWatch implements AutoCloseable {

    private final Replica replica;
    private final String token;
    private final Instant cut = Instant.now();
    private final AtomicReference<Instant> healed = new AtomicReference<>();
    private final AtomicReference<Duration> unready = new AtomicReference<>();
    private final AtomicReference<Duration> firstUnavailable = new AtomicReference<>();
    private final AtomicReference<Duration> readyAgain = new AtomicReference<>();
    private final AtomicReference<Duration> servingAgain = new AtomicReference<>();
    private final AtomicLong slowest = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong readsOk = new AtomicLong();
    private final AtomicLong unavailable = new AtomicLong();
    private final AtomicLong other = new AtomicLong();
    private volatile boolean running = true;
    private final Thread readiness;
    private final Thread reading;

    private PartitionWatch(Replica replica, String token) {
        this.replica = replica;
        this.token = token;
        readiness = new Thread(this::watchReadiness, "partition-readiness");
        reading = new Thread(this::watchReads, "partition-reads");
    }

    static PartitionWatch start(Replica replica, String token) {
        PartitionWatch watch = new PartitionWatch(replica, token);
        watch.readiness.start();
        watch.reading.start();
        return watch;
    }

    void healed() {
        healed.set(Instant.now());
    }

    private void watchReadiness() {
        while (running) {
            Probe.Answer answer = Probe.ready(replica);
            slowest.accumulateAndGet(answer.millis(), Math::max);
            if (healed.get() == null && answer.status() != 200) {
                unready.compareAndSet(null, Duration.between(cut, Instant.now()));
            } else if (healed.get() != null && answer.status() == 200) {
                readyAgain.compareAndSet(null, Duration.between(healed.get(), Instant.now()));
            }
            pause();
        }
    }

    private void watchReads() {
        while (running) {
            boolean duringCut = healed.get() == null; // a read sent before the heal belongs to the cut, whenever it ends
            Probe.Answer answer = Probe.read(replica, token);
            slowest.accumulateAndGet(answer.millis(), Math::max);
            if (duringCut) {
                reads.incrementAndGet();
                if (answer.status() == 200) {
                    readsOk.incrementAndGet();
                } else if (answer.status() == 503 && answer.retryAfter()) {
                    unavailable.incrementAndGet();
                    firstUnavailable.compareAndSet(null, Duration.between(cut, Instant.now()));
                } else {
                    other.incrementAndGet();
                }
            } else if (answer.status() == 200) {
                servingAgain.compareAndSet(null, Duration.between(healed.get(), Instant.now()));
            }
            pause();
        }
    }

    private void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Turned unready at; first 503 at; reads during the cut by answer; slowest answer; ready and serving after the heal. */
    String summary() throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(90);
        while ((readyAgain.get() == null || servingAgain.get() == null) && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        return String.format("%s: unready after %s, first 503 with Retry-After after %s; reads during the cut: %d (200: %d,"
                + " 503: %d, other or none: %d); slowest probe answer %.1f s; ready %s and serving %s after the heal",
                replica.name, seconds(unready.get()), seconds(firstUnavailable.get()), reads.get(), readsOk.get(), unavailable.get(),
                other.get(), slowest.get() / 1000.0, seconds(readyAgain.get()), seconds(servingAgain.get()));
    }

    /** What ChaosIT asserts: the replica turned unready and answered 503 while cut off, and nothing hung. */
    record Seen(Duration unready, Duration firstUnavailable, long slowestMillis, long readsOther, Duration servingAgain) {
    }

    Seen seen() {
        return new Seen(unready.get(), firstUnavailable.get(), slowest.get(), other.get(), servingAgain.get());
    }

    private static String seconds(Duration d) {
        return d == null ? "never" : String.format("%.1f s", d.toMillis() / 1000.0);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        readiness.join(70_000);
        reading.join(70_000);
    }
}
