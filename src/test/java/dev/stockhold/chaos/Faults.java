package dev.stockhold.chaos;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import dev.stockhold.chaos.ChaosSettings.Fault;
import dev.stockhold.support.KafkaBroker;

/**
 * Injects the planned faults one after another, with a gap between them, while the clients run. Each fault is a real
 * one: SIGKILL of a replica process, a restart of the machine's PostgreSQL cluster, the RabbitMQ application stopped,
 * a replica's links to PostgreSQL and the broker cut in its network namespace, a burst of extra clients. After each,
 * it measures how long until both replicas serve again.
 */
final class Faults {

    private final ChaosSettings settings;
    private final List<Replica> replicas;
    private final Map<Fault, Integer> injected = new EnumMap<>(Fault.class);
    private final Map<Fault, List<String>> recoveries = new EnumMap<>(Fault.class);
    private final List<PartitionWatch.Seen> partitions = new ArrayList<>();
    private final PartitionedNetwork network;
    /** The run's pg_auto_failover formation, or null on the machine's PostgreSQL. */
    private final HaCluster cluster;
    private final Clients clients;
    private final String token;
    private final List<String> timeline = new ArrayList<>();
    private Instant start = Instant.now();
    private int kills;
    private volatile boolean brokerStopped;

    /** The run's own Kafka broker when the target is Kafka; null for the machine's RabbitMQ. */
    private final KafkaBroker kafka;

    Faults(ChaosSettings settings, List<Replica> replicas, KafkaBroker kafka, PartitionedNetwork network, HaCluster cluster,
            Clients clients, String token) {
        this.settings = settings;
        this.replicas = replicas;
        this.kafka = kafka;
        this.network = network;
        this.cluster = cluster;
        this.clients = clients;
        this.token = token;
    }

    /** Runs the whole plan, one fault after the other, while the clients keep going. */
    void run() throws Exception {
        start = Instant.now();
        Thread.sleep(settings.faultGap().toMillis());
        for (Fault fault : settings.faults()) {
            note("begin " + fault.description);
            String observed = switch (fault) {
                case KILL_REPLICA -> killAndRestart(replicas.get(kills++ % replicas.size()));
                case RESTART_POSTGRES -> restartPostgres();
                case STOP_BROKER -> stopBroker(settings.brokerOutage());
                case PARTITION -> partition(List.of(PartitionedNetwork.Link.DATABASE, PartitionedNetwork.Link.BROKER));
                case PARTITION_BROKER -> partition(List.of(PartitionedNetwork.Link.BROKER));
                case OVERLOAD -> overload();
                case FAILOVER -> databaseFault(true);
                case KILL_PRIMARY -> databaseFault(false);
            };
            injected.merge(fault, 1, Integer::sum);
            note("end " + fault.description);
            Instant ended = Instant.now();
            Probe.awaitServing(replicas, token, Duration.ofSeconds(120));
            String recovery = String.format("%sserving on both replicas %.1f s after the fault ended",
                    observed.isEmpty() ? "" : observed + "; ",
                    Duration.between(ended, Instant.now()).toMillis() / 1000.0);
            recoveries.computeIfAbsent(fault, f -> new ArrayList<>()).add(recovery);
            note(recovery);
            Thread.sleep(settings.faultGap().toMillis());
        }
    }

    Map<Fault, Integer> injected() {
        return injected;
    }

    /** Per fault kind, what was observed during each one and how long the service took to serve again. */
    Map<Fault, List<String>> recoveries() {
        return recoveries;
    }

    /** What the cut-off replica showed during each partition from the database. */
    List<PartitionWatch.Seen> partitions() {
        return partitions;
    }

    List<String> timeline() {
        return timeline;
    }

    private void note(String what) {
        timeline.add(String.format("%6.1fs %s", Duration.between(start, Instant.now()).toMillis() / 1000.0, what));
    }

    private String killAndRestart(Replica replica) throws Exception {
        replica.kill();
        note("killed " + replica.name);
        Thread.sleep(1_000);
        Instant restarted = Instant.now();
        replica.start();
        replica.awaitReady(Duration.ofSeconds(90));
        note(replica.name + " ready again");
        return String.format("%s ready %.1f s after its restart", replica.name,
                Duration.between(restarted, Instant.now()).toMillis() / 1000.0);
    }

    /**
     * Cuts the partitioned replica's links mid-load while a {@link PartitionWatch} asks it for readiness and for a
     * database read, heals them after {@code settings.partition()}, and reports what the replica answered meanwhile.
     */
    private String partition(List<PartitionedNetwork.Link> links) throws Exception {
        if (network == null) {
            throw new IllegalStateException("a partition needs the second replica in a network namespace (root, ip netns)");
        }
        Replica cutOff = replicas.get(replicas.size() - 1);
        for (PartitionedNetwork.Link link : links) {
            network.cut(link);
        }
        note("links " + links + " of " + cutOff.name + " down");
        try (PartitionWatch watch = PartitionWatch.start(cutOff, token)) { // every probe it sends is sent into the cut
            Thread.sleep(settings.partition().toMillis());
            for (PartitionedNetwork.Link link : links) {
                network.heal(link);
            }
            note("links healed");
            watch.healed();
            cutOff.awaitReady(Duration.ofSeconds(90));
            String summary = watch.summary();
            if (links.contains(PartitionedNetwork.Link.DATABASE)) {
                partitions.add(watch.seen());
            }
            return summary;
        }
    }

    /**
     * A failover, or a kill -9 of the primary's postmaster, under load; then waits until the formation has a primary
     * and a synchronous standby again.
     */
    private String databaseFault(boolean failover) throws Exception {
        if (cluster == null) {
            throw new IllegalStateException("a failover needs the HA database (run without --database machine)");
        }
        cluster.awaitSynchronous(Duration.ofSeconds(120));
        int before = cluster.primaryPort();
        Instant start = Instant.now();
        if (failover) {
            cluster.failover();
        } else {
            cluster.killPrimary();
        }
        Probe.awaitServing(replicas, token, Duration.ofSeconds(120));
        double serving = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        cluster.awaitSettled(Duration.ofSeconds(120));
        return String.format("primary was :%d, now :%d; both replicas serving %.1f s after the fault, primary and"
                + " synchronous standby again after %.1f s", before, cluster.primaryPort(), serving,
                Duration.between(start, Instant.now()).toMillis() / 1000.0);
    }

    /** Four times the clients, sending with no pause, for {@code settings.burst()}: the adaptive limit sheds the rest. */
    private String overload() throws InterruptedException {
        long before = clients.shed();
        clients.burst(settings.burstClients(), settings.burst());
        return String.format("%d extra clients for %d s, %d requests shed with 503 + Retry-After", settings.burstClients(),
                settings.burst().toSeconds(), clients.shed() - before);
    }

    private String restartPostgres() throws Exception {
        String[] versions = new File("/etc/postgresql").list();
        if (versions == null || versions.length == 0) {
            throw new IllegalStateException("no PostgreSQL cluster under /etc/postgresql to restart");
        }
        Arrays.sort(versions);
        Commands.run("pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main", "restart");
        awaitExit(Duration.ofSeconds(60), "pg_isready", "-h", settings.pgHost(), "-p", Integer.toString(settings.pgPort()), "-q");
        return "";
    }

    private String stopBroker(Duration outage) throws Exception {
        brokerStopped = true;
        if (kafka != null) {
            kafka.kill();
        } else {
            Commands.run("rabbitmqctl", "stop_app");
        }
        note("broker stopped");
        Thread.sleep(outage.toMillis());
        startBroker();
        return "";
    }

    /** Also called after the run, so a failure in the middle of an outage never leaves the broker stopped. */
    void startBroker() throws Exception {
        if (brokerStopped) {
            if (kafka != null) {
                kafka.restart();
            } else {
                Commands.run("rabbitmqctl", "start_app");
                awaitBroker(Duration.ofMinutes(3));
            }
            brokerStopped = false;
        }
    }

    /** An AMQP connection is the test: cheaper than an Erlang CLI per try, which a loaded machine starts slowly. */
    private static void awaitBroker(Duration timeout) throws InterruptedException {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setConnectionTimeout(2_000);
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            try (Connection c = factory.newConnection()) {
                return;
            } catch (IOException | TimeoutException e) {
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException("RabbitMQ did not accept a connection within " + timeout);
    }

    private static void awaitExit(Duration timeout, String... command) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (Commands.succeeds(command)) {
                return;
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(String.join(" ", command) + " did not succeed within " + timeout);
    }
}
