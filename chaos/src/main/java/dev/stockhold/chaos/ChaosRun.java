package dev.stockhold.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import dev.stockhold.chaos.ChaosSettings.Fault;
import dev.stockhold.chaos.ClientLog.Operation;
import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.KafkaBroker;
import io.smallrye.jwt.build.Jwt;

/**
 * A Jepsen-style run: two replicas of the packaged service on one fresh database and the local RabbitMQ (or, with
 * {@code --target kafka}, a Kafka broker of the run's own), a
 * deduplicating consumer, concurrent clients and real faults; then, once the relay has drained, the invariant
 * checker. {@code bash bench/chaos} runs {@link ChaosSettings#full()}; ChaosIT runs {@link ChaosSettings#quick()}.
 */
public final class ChaosRun {

    private static final String ISSUER = "https://chaos.stockhold/issuer";
    private static final String AUDIENCE = "stockhold";
    /** The drain settles the short-lived reservations; the snapshot does not need more (it is consistent anyway). */
    private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(1);
    private static final int BROKER_PORT = 5672;

    /** The outcome of one run: what was done, what was injected, what the checker found. */
    public record Report(ChaosSettings settings, String tenant, String database, ClientLog clients,
            Map<Fault, Integer> faults, Map<Fault, List<String>> recoveries, List<PartitionWatch.Seen> partitions,
            List<String> timeline, Duration drain,
            InvariantChecker.Result result, String failure) {

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
            row(t, "503 outcome unknown (a commit cut off; the key retried)", clients.outcomeUnknown.sum());
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
                row(t, "outbox events written", result.outboxEvents());
                row(t, "deliveries received (with duplicates)", result.delivered());
                row(t, "duplicates delivered", result.duplicates());
                row(t, "relay drained after the run in", String.format("%.1f s", drain.toMillis() / 1000.0));
                row(t, "**events missing** (must be 0)", result.eventsMissing());
                row(t, "**sequence gaps** (must be 0)", result.sequenceGaps());
                result.violationsByRule().forEach((rule, n) -> row(t, "violations: " + rule, n));
                row(t, "**invariant violations** (must be 0)", result.violations().size());
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
    /** The run's pg_auto_failover formation, when the settings ask for it. */
    private HaCluster cluster;
    /** The cut-off replica's namespace and links, when a partition is planned. */
    private PartitionedNetwork network;

    public ChaosRun(ChaosSettings settings) {
        this.settings = settings;
    }

    /** What the consumer received: RabbitMQ's queue or Kafka's topics, read the same way by the checker. */
    interface EventFeed extends AutoCloseable {
        List<BrokerQueue.Delivery> allOf(String tenant);

        @Override
        void close();
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

    /** One run; the namespace and the HA formation are removed afterwards whatever happened. */
    public Report run() throws Exception {
        try {
            return runOnce();
        } finally {
            if (network != null) {
                network.close();
            }
            if (cluster != null) {
                cluster.close(); // the formation and its data go; the report and the logs stay in the run's directory
            }
        }
    }

    private Report runOnce() throws Exception {
        if (!Files.exists(settings.jar())) {
            throw new IllegalStateException(settings.jar() + " is missing: package the service first");
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        Path work = Files.createDirectories(settings.workDir().resolve(stamp));
        String database = "stockhold_chaos_" + stamp;
        String tenant = "chaos-" + UUID.randomUUID().toString().substring(0, 8);
        if (settings.database() == ChaosSettings.Database.HA) {
            if (!HaCluster.available()) {
                throw new IllegalStateException("the failover faults need root and pg_auto_failover (apt-get install"
                        + " pg-auto-failover-cli postgresql-15-auto-failover); or run with --database machine");
            }
            cluster = HaCluster.start(work.resolve("postgres-ha.log"));
        }
        admin("CREATE DATABASE " + database);

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair issuer = generator.generateKeyPair();
        Path publicKey = work.resolve("issuer.pub");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(issuer.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        String token = Jwt.issuer(ISSUER).audience(AUDIENCE).subject("chaos").claim("tenant_id", tenant)
                .groups(Set.of("reservations", "inventory-admin")).expiresIn(Duration.ofHours(2))
                .sign(issuer.getPrivate());

        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl(database));
        env.put("QUARKUS_DATASOURCE_USERNAME", settings.pgUser());
        env.put("QUARKUS_DATASOURCE_PASSWORD", "");
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", publicKey.toAbsolutePath().toString());
        env.put("MP_JWT_VERIFY_ISSUER", ISSUER);
        env.put("STOCKHOLD_SECURITY_AUDIENCE", AUDIENCE);
        env.put("RABBITMQ_USERNAME", "guest");
        env.put("RABBITMQ_PASSWORD", "guest");
        env.put("STOCKHOLD_SECURITY_CURSOR_SECRET", "chaos-run-cursor-secret-" + UUID.randomUUID());
        // a killed replica's claimed events are taken over after the lease: shorter than the 30 s default so the
        // drain after the run is quick; still longer than the publish timeout (10 s), as it must be
        env.put("STOCKHOLD_RELAY_LEASE", "15s");
        // a retry schedule of about one second (4 attempts, 100-500 ms apart), far shorter than every broker outage:
        // were an outage charged to the events, they would all be DEAD, hence missing, long before the broker returns
        env.put("STOCKHOLD_OUTBOX_MAX_ATTEMPTS", "4");
        env.put("STOCKHOLD_OUTBOX_BACKOFF_INITIAL", "100ms");
        env.put("STOCKHOLD_OUTBOX_BACKOFF_MAX", "500ms");
        KafkaBroker kafka = null;
        if (settings.target() == ChaosSettings.Target.KAFKA) {
            kafka = new KafkaBroker().start();
            env.put("STOCKHOLD_RELAY_TARGET", "kafka");
            env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        }
        if (settings.partitions()) {
            if (!PartitionedNetwork.available()) {
                throw new IllegalStateException("partition faults need root and ip netns; pick others with --faults");
            }
            network = PartitionedNetwork.create(cluster == null ? List.of(settings.pgPort()) : HaCluster.NODE_PORTS, BROKER_PORT);
        }
        List<Replica> replicas = new ArrayList<>();
        for (int i = 0; i < settings.ports().size(); i++) {
            String name = "replica-" + (char) ('a' + i);
            boolean cutOff = network != null && i == settings.ports().size() - 1;
            Map<String, String> own = new LinkedHashMap<>(env);
            if (cutOff) { // the last replica lives in the namespace and reaches PostgreSQL and the broker over its links
                own.put("QUARKUS_DATASOURCE_JDBC_URL", partitionedJdbcUrl(database));
                own.put("RABBITMQ_HOST", PartitionedNetwork.Link.BROKER.outside);
                own.put("RABBITMQ_PORT", Integer.toString(network.forwarded(BROKER_PORT)));
            }
            replicas.add(new Replica(name, cutOff ? PartitionedNetwork.Link.CLIENTS.inside : "127.0.0.1", settings.ports().get(i),
                    cutOff ? network.launcher() : List.of(), settings.jar(), work.resolve(name + ".log"), own));
        }

        ClientLog clients = new ClientLog();
        Map<String, Long> stock = new LinkedHashMap<>();
        Clients load = new Clients(replicas, token, List.copyOf(seedPlan().keySet()), clients, settings.thinkTime());
        Faults faults = new Faults(settings, replicas, kafka, network, cluster, load, token);
        AtomicReference<String> failure = new AtomicReference<>();
        Duration drained = Duration.ZERO;
        InvariantChecker.Result result = null;
        try (EventFeed events = kafka == null ? rabbit(new BrokerQueue()) : new KafkaFeed(kafka.bootstrapServers())) {
            for (Replica replica : replicas) { // one after the other: the first one migrates the fresh database
                replica.start();
                replica.awaitReady(Duration.ofSeconds(90));
            }
            stock.putAll(seed(replicas.get(0), token));

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
            try (Connection db = DriverManager.getConnection(jdbcUrl(database), settings.pgUser(), "")) {
                drain(db, tenant, events);
                drained = Duration.between(drainStart, Instant.now());
                InvariantChecker.Snapshot snapshot = consistentSnapshot(db, tenant);
                result = new InvariantChecker().check(snapshot, stock, clients, receivedOf(snapshot, db, tenant, events));
            }
        } catch (Exception e) {
            failure.compareAndSet(null, e.toString());
        } finally {
            for (Replica replica : replicas) {
                replica.stop();
            }
            faults.startBroker();
            if (kafka != null) {
                kafka.close();
            }
            if (network != null) {
                network.close();
            }
        }

        Report report = new Report(settings, tenant, database, clients, faults.injected(), faults.recoveries(), faults.partitions(),
                faults.timeline(),
                drained, result, failure.get());
        Files.writeString(work.resolve("report.md"), report.table());
        if (result != null && !result.violations().isEmpty()) {
            // the table prints the first 30; every one is kept beside it
            Files.write(work.resolve("violations.txt"), result.violations());
        }
        if (cluster == null && report.passed()) {
            admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
        return report;
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

    private static EventFeed rabbit(BrokerQueue queue) {
        return new EventFeed() {
            @Override
            public List<BrokerQueue.Delivery> allOf(String tenant) {
                return queue.allOf(tenant);
            }

            @Override
            public void close() {
                queue.close();
            }
        };
    }

    /**
     * Waits until the short-lived reservations have expired (so no event is written after the snapshot), nothing is
     * pending in the outbox and the consumer has received every published event.
     */
    private void drain(Connection db, String tenant, EventFeed events) throws SQLException, InterruptedException {
        Instant deadline = Instant.now().plus(DRAIN_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            long expiring = count(db, "SELECT count(*) FROM reservations WHERE tenant_id = ? AND status = 'HELD'"
                    + " AND expires_at < now() + interval '60 seconds'", tenant);
            long pending = count(db, "SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND status = 'PENDING'", tenant);
            if (expiring == 0 && pending == 0) {
                Set<String> published = new HashSet<>();
                try (PreparedStatement ps = db.prepareStatement(
                        "SELECT id::text FROM outbox_events WHERE tenant_id = ? AND status = 'PUBLISHED'")) {
                    ps.setString(1, tenant);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            published.add(rs.getString(1));
                        }
                    }
                }
                events.allOf(tenant).forEach(d -> published.remove(d.eventId()));
                if (published.isEmpty()) {
                    return;
                }
            }
            Thread.sleep(500);
        }
    }

    /**
     * The whole state in one REPEATABLE READ transaction: the replicas keep running (a reservation held for 10 minutes
     * may expire while the checker reads), so tables read one after the other could mix two moments.
     */
    private static InvariantChecker.Snapshot consistentSnapshot(Connection db, String tenant) throws SQLException {
        db.setAutoCommit(false);
        db.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        db.setReadOnly(true);
        try {
            return InvariantChecker.snapshot(db, tenant);
        } finally {
            db.commit();
            db.setReadOnly(false);
            db.setAutoCommit(true);
        }
    }

    /**
     * What the consumer received, once it has received every event of the snapshot (or a minute has passed: the rest is
     * then missing), without the events written after the snapshot: those belong to a later state. A delivery whose
     * event was never written at all stays in, and the checker reports it.
     */
    private static List<BrokerQueue.Delivery> receivedOf(InvariantChecker.Snapshot snapshot, Connection db, String tenant,
            EventFeed events) throws SQLException, InterruptedException {
        Set<String> written = snapshot.events().stream().map(InvariantChecker.Event::id).collect(Collectors.toSet());
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (Instant.now().isBefore(deadline)) {
            Set<String> waiting = new HashSet<>(written);
            events.allOf(tenant).forEach(d -> waiting.remove(d.eventId()));
            if (waiting.isEmpty()) {
                break;
            }
            Thread.sleep(500);
        }
        Set<String> later = new HashSet<>();
        try (PreparedStatement ps = db.prepareStatement("SELECT id::text FROM outbox_events WHERE tenant_id = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!written.contains(rs.getString(1))) {
                        later.add(rs.getString(1));
                    }
                }
            }
        }
        return events.allOf(tenant).stream().filter(d -> !later.contains(d.eventId())).toList();
    }

    private static long count(Connection db, String sql, String tenant) throws SQLException {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private String jdbcUrl(String database) {
        return jdbcUrl(database, settings.pgHost(), port -> port);
    }

    /** The cut-off replica's URL: the same database through the forwarders on the machine's end of its link. */
    private String partitionedJdbcUrl(String database) {
        return jdbcUrl(database, PartitionedNetwork.Link.DATABASE.outside, network::forwarded);
    }

    /** The machine's PostgreSQL, or every node of the HA formation with {@code targetServerType=primary}. */
    private String jdbcUrl(String database, String host, java.util.function.IntUnaryOperator port) {
        List<Integer> ports = cluster == null ? List.of(settings.pgPort()) : HaCluster.NODE_PORTS;
        return "jdbc:postgresql://" + ports.stream().map(p -> host + ":" + port.applyAsInt(p)).collect(Collectors.joining(","))
                + "/" + database + (cluster == null ? "" : "?targetServerType=primary");
    }

    private void admin(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl("postgres"), settings.pgUser(), "");
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

}
