package dev.stockhold.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Concurrent clients as careless but honest callers behave, each thread taking the steps of every feature's client
 * ({@link #FEATURES}) by their weights: reservations, their lifecycle, edits, listings, fulfilments and releases, and
 * admins feeding and counting stock. Any replica may be dead at any moment; a client that gets no answer treats the
 * outcome as unknown and retries the key later.
 */
final class Clients {

    /** Every feature's client; a new feature adds its own here, and edits no other. */
    static final List<Supplier<FeatureClient>> FEATURES = List.of(ReservationClient::new, LifecycleClient::new,
            EditClient::new, ListingClient::new, SettlementClient::new, AdjustmentClient::new, CountClient::new, TransferClient::new,
            ChannelClient::new, BackorderClient::new, KitClient::new);

    private final List<FeatureClient> features;
    private final ClientLog log;
    private final Duration thinkTime;

    Clients(List<Replica> replicas, String token, List<String> skus, ClientLog log, Duration thinkTime) {
        this.thinkTime = thinkTime;
        this.log = log;
        FeatureClient.Context context = new FeatureClient.Context(replicas, token, skus, log, new FeatureClient.Made());
        this.features = FEATURES.stream().map(f -> f.get().join(context)).toList();
    }

    /** Each feature's setup, before the load starts. */
    void prepare(Replica replica) throws java.io.IOException, InterruptedException {
        for (FeatureClient feature : features) {
            feature.prepare(replica);
        }
    }

    /** Runs {@code count} clients while {@code keepGoing} holds, then waits for their last requests. */
    void run(int count, BooleanSupplier keepGoing) throws InterruptedException {
        run(count, keepGoing, thinkTime, "chaos-client-");
    }

    /** 503 answers received so far (shed by the adaptive limit, a database away, an interrupted commit). */
    long shed() {
        LongAdder n = log.statuses.get(503);
        return n == null ? 0 : n.sum();
    }

    /** {@code count} more clients that send their next request as soon as the last one is answered, for {@code length}. */
    void burst(int count, Duration length) throws InterruptedException {
        Instant end = Instant.now().plus(length);
        run(count, () -> Instant.now().isBefore(end), Duration.ZERO, "chaos-burst-");
    }

    private void run(int count, BooleanSupplier keepGoing, Duration think, String name) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread t = new Thread(() -> loop(keepGoing, think), name + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private void loop(BooleanSupplier keepGoing, Duration think) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<FeatureClient.Step> steps = features.stream().flatMap(f -> f.steps().stream()).toList();
        int total = steps.stream().mapToInt(FeatureClient.Step::weight).sum();
        while (keepGoing.getAsBoolean()) {
            int dice = random.nextInt(total);
            for (FeatureClient.Step step : steps) {
                dice -= step.weight();
                if (dice < 0) {
                    step.action().accept(random);
                    break;
                }
            }
            try {
                Thread.sleep(random.nextLong(2 * think.toMillis() + 1));
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
