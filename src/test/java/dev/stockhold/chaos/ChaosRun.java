package dev.stockhold.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import dev.stockhold.chaos.ChaosSettings.Fault;
import dev.stockhold.chaos.ClientLog.Operation;
import dev.stockhold.support.BrokerQueue;

/**
 * A Jepsen-style run, in parts: the {@link Environment} (two replicas of the packaged service on one fresh database
 * and the local RabbitMQ or, with {@code --target kafka}, a Kafka broker of the run's own), the workload
 * ({@link Clients}, a weighted table of operations, recorded in a {@link ClientLog}), the {@link Faults} injected beside
 * it, the {@link Aftermath} read once the relay has drained, and the {@link InvariantChecker}'s verdict; this class
 * orders them and writes the report. {@code bash bench/chaos} runs {@link ChaosSettings#full()}; ChaosIT runs
 * {@link ChaosSettings#quick()}.
 */
public final class ChaosRun {

    /** The outcome of one run: what was done, what was injected, what the checker found. */
    public record Report(ChaosSettings settings, String tenant, String database, ClientLog clients,
            Map<Fault, Integer> faults, Map<Fault, List<String>> recoveries, List<PartitionWatch.Seen> partitions,
            List<String> timeline, Duration drain,
            InvariantChecker.Result result, String failure, String formationFault) {

        public boolean passed() {
            return failure == null && result != null && result.passed();
        }

        public String table() {
            StringBuilder t = new StringBuilder();
            t.append(String.format(
                    "chaos run: load for at least %d s and until the last fault is over, 2 replicas, %d clients, events to %s, tenant %s, database %s%n",
                    settings.duration().toSeconds(), settings.clients(), settings.target().name().toLowerCase(), tenant, database));
            row(t, "check", "value");
            t.append("|---|---|\n");
            row(t, "operations (HTTP requests)", clients.requests());
            clients.operations.forEach((op, n) -> row(t, "  " + op.name().toLowerCase().replace('_', ' '), n.sum()));
            row(t, "answers by status", clients.statuses.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .map(e -> e.getKey() + ": " + e.getValue().sum()).collect(Collectors.joining(", ")));
            row(t, "no answer (dropped, reset, timed out): outcome unknown, key retried", clients.noAnswer.sum());
            row(t, "503 outcome unknown (a commit cut off; a key retried, a set possibly won)", clients.outcomeUnknown.sum());
            row(t, "connections refused by a dead replica (sent to the other)", clients.refused.sum());
            row(t, "slowest answer or failure per replica (ms)", new java.util.TreeMap<>(clients.slowest));
            row(t, "listing pages read while writing (an item twice or out of order is a violation)", clients.listedPages.sum());
            for (Fault fault : Fault.values()) {
                row(t, "fault: " + fault.description + (fault == Fault.STOP_BROKER
                        ? " " + settings.brokerOutage().toSeconds() + " s (retry schedule: about 1 s)" : ""),
                        faults.getOrDefault(fault, 0));
            }
            recoveries.forEach((fault, observed) -> {
                for (int i = 0; i < observed.size(); i++) {
                    row(t, "recovery: " + fault.name().toLowerCase().replace('_', ' ') + " #" + (i + 1), observed.get(i));
                }
            });
            row(t, "split / partial requests answered 201 (partial: of them short of what they asked)", clients.allocations());
            row(t, "fault: client dropped its connection after sending",
                    clients.operations.get(Operation.DROPPED_CONNECTION).sum());
            if (result != null) {
                row(t, "reservations by final status", result.reservationsByStatus());
                result.exercised().forEach((what, n) -> row(t, what, n));
                row(t, "outbox events written", result.outboxEvents());
                row(t, "deliveries received (with duplicates)", result.delivered());
                row(t, "duplicates delivered", result.duplicates());
                row(t, "relay drained after the run in", String.format("%.1f s", drain.toMillis() / 1000.0));
                row(t, "**events missing** (must be 0)", result.eventsMissing());
                row(t, "**sequence gaps** (must be 0)", result.sequenceGaps());
                result.violationsByRule().forEach((rule, n) -> row(t, "violations: " + rule, n));
                row(t, "**invariant violations** (must be 0)", result.violations().size());
            }
            if (formationFault != null) {
                row(t, "**the database formation failed** (the run proves nothing about Stockhold)", formationFault);
            }
            row(t, "result", passed() ? "PASS" : "FAIL" + (failure == null ? "" : ": " + failure));
            if (result != null) {
                result.violations().stream().limit(30).forEach(v -> t.append("  ").append(v).append('\n'));
                result.missingEvents().stream().limit(30).forEach(v -> t.append("  ").append(v).append('\n'));
            }
            timeline.forEach(line -> t.append("  fault timeline ").append(line).append('\n'));
            return t.toString();
        }

        private static void row(StringBuilder t, String name, Object value) {
            t.append("| ").append(name).append(" | ").append(value).append(" |\n");
        }
    }

    private final ChaosSettings settings;

    public ChaosRun(ChaosSettings settings) {
        this.settings = settings;
    }

    /** {@code [--quick] [--target rabbitmq|kafka] [--database ha|machine] [--faults kill_replica,partition,...]} */
    public static void main(String[] args) throws Exception {
        List<String> options = List.of(args);
        ChaosSettings settings = options.contains("--quick") ? ChaosSettings.quick() : ChaosSettings.full();
        int target = options.indexOf("--target");
        if (target >= 0 && target + 1 < options.size()) {
            settings = settings.withTarget(ChaosSettings.Target.valueOf(options.get(target + 1).toUpperCase(java.util.Locale.ROOT)));
            if (settings.target() == ChaosSettings.Target.KAFKA) {
                // the KRaft broker advertises a loopback listener, which a replica in a namespace cannot reach
                settings = settings.withFaults(settings.faults().stream()
                        .filter(f -> f != Fault.PARTITION && f != Fault.PARTITION_BROKER).toList());
            }
        }
        int database = options.indexOf("--database");
        if (database >= 0 && database + 1 < options.size()) {
            settings = settings.withDatabase(ChaosSettings.Database.valueOf(options.get(database + 1).toUpperCase(java.util.Locale.ROOT)));
        }
        int faults = options.indexOf("--faults");
        if (faults >= 0 && faults + 1 < options.size()) {
            settings = settings.withFaults(java.util.Arrays.stream(options.get(faults + 1).split(","))
                    .map(f -> Fault.valueOf(f.trim().toUpperCase(java.util.Locale.ROOT))).toList());
        }
        Report report = new ChaosRun(settings).run();
        System.out.println(report.table());
        System.exit(report.passed() ? 0 : 1);
    }

    /**
     * One run: the environment, the workload with the faults beside it until both are done, the aftermath read, the
     * checker's verdict and the report. The namespace and the HA formation are removed afterwards whatever happened.
     */
    public Report run() throws Exception {
        try (Environment env = Environment.build(settings)) {
            Environment.Parts run = env.parts();
            ClientLog clients = new ClientLog();
            Map<String, Long> stock = new LinkedHashMap<>();
            Clients load = new Clients(run.replicas(), run.token(), List.copyOf(seedPlan().keySet()), clients, settings.thinkTime());
            Faults faults = new Faults(settings, run.replicas(), run.kafka(), run.network(), run.cluster(), load, run.token());
            AtomicReference<String> failure = new AtomicReference<>();
            Duration drained = Duration.ZERO;
            InvariantChecker.Result result = null;
            try (Aftermath.EventFeed events = run.kafka() == null ? Aftermath.rabbit(new BrokerQueue())
                    : new KafkaFeed(run.kafka().bootstrapServers())) {
                env.startReplicas();
                stock.putAll(seed(run.replicas().get(0), run.token()));
                load.prepare(run.replicas().get(0));

                Instant until = Instant.now().plus(settings.duration());
                Thread injector = new Thread(() -> {
                    try {
                        faults.run();
                    } catch (Exception e) {
                        failure.compareAndSet(null, "fault injection failed: " + e);
                    }
                }, "chaos-faults");
                injector.start();
                load.run(settings.clients(), () -> Instant.now().isBefore(until) || injector.isAlive());
                injector.join();
                faults.startBroker();

                Instant drainStart = Instant.now();
                try (Connection db = env.connect()) {
                    Aftermath.drain(db, run.tenant(), events);
                    drained = Duration.between(drainStart, Instant.now());
                    Snapshot snapshot = Aftermath.consistentSnapshot(db, run.tenant());
                    result = new InvariantChecker().check(snapshot, stock, clients,
                            Aftermath.receivedOf(snapshot, db, run.tenant(), events));
                }
            } catch (Exception e) {
                failure.compareAndSet(null, e.toString());
            } finally {
                env.stopProcesses();
                faults.startBroker();
            }

            Report report = new Report(settings, run.tenant(), run.database(), clients, faults.injected(), faults.recoveries(),
                    faults.partitions(), faults.timeline(), drained, result, failure.get(), env.formationFault());
            Files.writeString(run.work().resolve("report.md"), report.table());
            if (result != null && !result.violations().isEmpty()) {
                // the table prints the first 30; every one is kept beside it
                Files.write(run.work().resolve("violations.txt"), result.violations());
            }
            if (report.passed()) {
                env.dropDatabase();
            }
            return report;
        }
    }

    private Map<String, Long> seed(Replica replica, String token) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        Map<String, Long> stock = seedPlan();
        for (Map.Entry<String, Long> item : stock.entrySet()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create(replica.baseUrl() + "/v1/items/" + item.getKey()))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"available\":" + item.getValue() + "}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("seeding " + item.getKey() + ": " + response.statusCode() + " " + response.body());
            }
        }
        return stock;
    }

    /** The skus the run seeds, with their stock: many ordinary ones and one hot one. */
    private Map<String, Long> seedPlan() {
        Map<String, Long> stock = new LinkedHashMap<>();
        for (int i = 1; i <= settings.skus(); i++) {
            stock.put(String.format("CH-%02d", i), (long) settings.stockPerSku());
        }
        stock.put("HOT", (long) settings.hotStock());
        return stock;
    }
}
