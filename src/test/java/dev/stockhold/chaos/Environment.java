package dev.stockhold.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntUnaryOperator;
import java.util.stream.Collectors;

import dev.stockhold.support.KafkaBroker;
import io.smallrye.jwt.build.Jwt;

/**
 * What one chaos run runs on, built before it and torn down after it: a fresh database (on the machine's PostgreSQL or
 * a pg_auto_failover formation of the run's own), a token issuer and the tenant's token, the broker (the local
 * RabbitMQ, or a Kafka broker of the run's own), the cut-off replica's network namespace when a partition is planned,
 * and the replicas of the packaged service with their settings. It holds no workload, fault or check.
 */
final class Environment implements AutoCloseable {

    private static final String ISSUER = "https://chaos.stockhold/issuer";
    private static final String AUDIENCE = "stockhold";
    private static final int BROKER_PORT = 5672;

    private final ChaosSettings settings;
    private final Path work;
    private final String database;
    private final String tenant;
    /** The run's pg_auto_failover formation, when the settings ask for it. */
    private HaCluster cluster;
    /** The cut-off replica's namespace and links, when a partition is planned. */
    private PartitionedNetwork network;
    private KafkaBroker kafka;
    private String token;
    private final List<Replica> replicas = new ArrayList<>();

    private Environment(ChaosSettings settings, Path work, String database, String tenant) {
        this.settings = settings;
        this.work = work;
        this.database = database;
        this.tenant = tenant;
    }

    /** Builds everything but starts no replica; on a failure what was built is torn down. */
    static Environment build(ChaosSettings settings) throws Exception {
        if (!Files.exists(settings.jar())) {
            throw new IllegalStateException(settings.jar() + " is missing: package the service first");
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        Environment env = new Environment(settings, Files.createDirectories(settings.workDir().resolve(stamp)),
                "stockhold_chaos_" + stamp, "chaos-" + UUID.randomUUID().toString().substring(0, 8));
        try {
            env.create();
            return env;
        } catch (Exception e) {
            try {
                env.stopProcesses();
                env.close();
            } catch (Exception cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private void create() throws Exception {
        if (settings.database() == ChaosSettings.Database.HA) {
            if (!HaCluster.available()) {
                throw new IllegalStateException("the failover faults need root and pg_auto_failover (apt-get install"
                        + " pg-auto-failover-cli postgresql-15-auto-failover); or run with --database machine");
            }
            cluster = HaCluster.start(work.resolve("postgres-ha.log"));
        }
        admin("CREATE DATABASE " + database);
        Path publicKey = issueToken();
        Map<String, String> env = replicaEnvironment(publicKey);
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
        for (int i = 0; i < settings.ports().size(); i++) {
            String name = "replica-" + (char) ('a' + i);
            boolean cutOff = network != null && i == settings.ports().size() - 1;
            Map<String, String> own = new LinkedHashMap<>(env);
            if (cutOff) { // the last replica lives in the namespace and reaches PostgreSQL and the broker over its links
                own.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl(database, PartitionedNetwork.Link.DATABASE.outside, network::forwarded));
                own.put("RABBITMQ_HOST", PartitionedNetwork.Link.BROKER.outside);
                own.put("RABBITMQ_PORT", Integer.toString(network.forwarded(BROKER_PORT)));
            }
            replicas.add(new Replica(name, cutOff ? PartitionedNetwork.Link.CLIENTS.inside : "127.0.0.1", settings.ports().get(i),
                    cutOff ? network.launcher() : List.of(), settings.jar(), work.resolve(name + ".log"), own));
        }
    }

    /** A token of the run's own issuer for the run's tenant; @return the issuer's public key, as the replicas read it */
    private Path issueToken() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair issuer = generator.generateKeyPair();
        Path publicKey = work.resolve("issuer.pub");
        Files.writeString(publicKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(issuer.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        token = Jwt.issuer(ISSUER).audience(AUDIENCE).subject("chaos").claim("tenant_id", tenant)
                .groups(Set.of("reservations", "inventory-admin")).expiresIn(Duration.ofHours(2))
                .sign(issuer.getPrivate());
        return publicKey;
    }

    /** What every replica is started with: the run's database, issuer, broker and short relay schedules. */
    private Map<String, String> replicaEnvironment(Path publicKey) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl(database));
        env.put("QUARKUS_DATASOURCE_USERNAME", settings.pgUser());
        env.put("QUARKUS_DATASOURCE_PASSWORD", "");
        env.put("MP_JWT_VERIFY_PUBLICKEY_LOCATION", publicKey.toAbsolutePath().toString());
        env.put("MP_JWT_VERIFY_ISSUER", ISSUER);
        env.put("STOCKHOLD_SECURITY_AUDIENCE", AUDIENCE);
        env.put("STOCKHOLD_EVENTS_SCHEMA_BASE_URI", "http://localhost/schemas/events/");
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
        return env;
    }

    /** Starts the replicas one after the other: the first one migrates the fresh database. */
    void startReplicas() throws Exception {
        for (Replica replica : replicas) {
            replica.start();
            replica.awaitReady(Duration.ofSeconds(90));
        }
    }

    /** Stops the replicas, the run's Kafka broker and its namespace; the database stays for the report. */
    void stopProcesses() throws IOException, InterruptedException {
        for (Replica replica : replicas) {
            replica.stop();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (network != null) {
            network.close();
        }
    }

    /** The namespace and the HA formation go, whatever happened; the report and the logs stay in the run's directory. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (network != null) {
            network.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Drops the run's database, unless it lives in a formation that {@link #close()} removes anyway. */
    void dropDatabase() throws SQLException {
        if (cluster == null) {
            admin("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    /**
     * Why the run's HA formation itself broke its promise, if it did: pg_auto_failover, asked to fail over in the same
     * second as its monitor found the standby unhealthy, leaves the old primary in {@code wait_primary}, which it
     * cannot demote, while it promotes the standby: two primaries take writes, and nothing a client was answered can
     * be held to one history. Read from the formation's log; null when the formation kept one primary.
     */
    String formationFault() throws IOException {
        Path log = work.resolve("postgres-ha.log");
        if (cluster == null || !Files.exists(log)) {
            return null;
        }
        return Files.readString(log).contains("does not know how to reach state \"demote_timeout\"")
                ? "pg_auto_failover could not demote the old primary during a failover (see postgres-ha.log): two primaries"
                : null;
    }

    /** A connection to the run's database (the current primary of a formation). */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), settings.pgUser(), "");
    }

    /** What the run's parts use: where its files go, the database and tenant, the token, the processes. */
    record Parts(Path work, String database, String tenant, String token, List<Replica> replicas, KafkaBroker kafka,
            PartitionedNetwork network, HaCluster cluster) {
    }

    Parts parts() {
        return new Parts(work, database, tenant, token, List.copyOf(replicas), kafka, network, cluster);
    }

    private String jdbcUrl(String database) {
        return jdbcUrl(database, settings.pgHost(), port -> port);
    }

    /** The machine's PostgreSQL, or every node of the HA formation with {@code targetServerType=primary}. */
    private String jdbcUrl(String database, String host, IntUnaryOperator port) {
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
