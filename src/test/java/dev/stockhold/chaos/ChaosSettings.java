package dev.stockhold.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.stockhold.support.Repository;

/**
 * One chaos run's shape: how long the clients run, how many there are and which faults are injected, in order.
 * {@link #full()} is {@code bench/chaos}; {@link #quick()} is the version in {@code ./mvnw verify} (ChaosIT).
 */
public record ChaosSettings(Duration duration, int clients, List<Fault> faults, Duration brokerOutage, Duration faultGap,
        Duration thinkTime, String pgHost, int pgPort, String pgUser, Path jar, Path workDir, List<Integer> ports, int skus,
        int stockPerSku, int hotStock, Target target, Duration partition, int burstClients, Duration burst,
        Database database) {

    /** Which PostgreSQL the run uses. */
    public enum Database {
        /** The machine's cluster at {@code pgHost:pgPort}; its fault is a restart. */
        MACHINE,
        /** A pg_auto_failover formation of the run's own (HaCluster); its faults are a failover and a kill -9. */
        HA
    }

    /** Where the replicas' relays publish and the consumer reads. */
    public enum Target {
        /** The machine's RabbitMQ; its fault is {@code rabbitmqctl stop_app}. */
        RABBITMQ,
        /** A KRaft broker of the run's own (support/KafkaBroker); its fault is {@code kill -9} and a restart. */
        KAFKA
    }

    /** The same run against another target. */
    public ChaosSettings withTarget(Target other) {
        return new ChaosSettings(duration, clients, faults, brokerOutage, faultGap, thinkTime, pgHost, pgPort, pgUser, jar, workDir,
                ports, skus, stockPerSku, hotStock, other, partition, burstClients, burst, database);
    }

    /** The same run with other faults, in this order. */
    public ChaosSettings withFaults(List<Fault> other) {
        return new ChaosSettings(duration, clients, other, brokerOutage, faultGap, thinkTime, pgHost, pgPort, pgUser, jar, workDir,
                ports, skus, stockPerSku, hotStock, target, partition, burstClients, burst, database);
    }

    /**
     * The same run on another database. On the machine's PostgreSQL a restart of it stands in for the failover and the
     * kill -9 of the primary, which need the HA formation.
     */
    public ChaosSettings withDatabase(Database other) {
        List<Fault> plan = other == Database.HA ? faults
                : faults.stream().map(f -> f == Fault.FAILOVER || f == Fault.KILL_PRIMARY ? Fault.RESTART_POSTGRES : f).toList();
        return new ChaosSettings(duration, clients, plan, brokerOutage, faultGap, thinkTime, pgHost, pgPort, pgUser, jar, workDir,
                ports, skus, stockPerSku, hotStock, target, partition, burstClients, burst, other);
    }

    /** Whether a fault needs the second replica in its own network namespace. */
    public boolean partitions() {
        return faults.contains(Fault.PARTITION) || faults.contains(Fault.PARTITION_BROKER);
    }

    /** The faults the run injects besides the clients' own dropped connections. */
    public enum Fault {
        KILL_REPLICA("kill -9 of a replica, then restart"),
        RESTART_POSTGRES("PostgreSQL restart (pg_ctlcluster restart)"),
        STOP_BROKER("broker stopped (RabbitMQ stop_app, Kafka kill -9), then started"),
        PARTITION("replica-b cut off from PostgreSQL and the broker (links down mid-load), then healed"),
        PARTITION_BROKER("replica-b cut off from the broker only, then healed"),
        OVERLOAD("a burst of extra clients sending with no pause"),
        FAILOVER("database failover (pg_autoctl perform failover: the synchronous standby promoted)"),
        KILL_PRIMARY("kill -9 of the primary's postmaster");

        final String description;

        Fault(String description) {
            this.description = description;
        }
    }

    public static ChaosSettings full() {
        return defaults(Duration.ofSeconds(120), 12, List.of(Fault.KILL_REPLICA, Fault.PARTITION, Fault.STOP_BROKER,
                Fault.FAILOVER, Fault.OVERLOAD, Fault.KILL_REPLICA, Fault.PARTITION_BROKER, Fault.KILL_PRIMARY, Fault.STOP_BROKER,
                Fault.FAILOVER, Fault.KILL_REPLICA), Duration.ofSeconds(20), Duration.ofSeconds(25), Database.HA);
    }

    public static ChaosSettings quick() {
        return defaults(Duration.ofSeconds(30), 8, List.of(Fault.STOP_BROKER, Fault.PARTITION, Fault.KILL_REPLICA),
                Duration.ofSeconds(10), Duration.ofSeconds(16), Database.MACHINE);
    }

    private static ChaosSettings defaults(Duration duration, int clients, List<Fault> faults, Duration outage,
            Duration partition, Database database) {
        return new ChaosSettings(
                Duration.ofSeconds(Long.getLong("chaos.seconds", duration.toSeconds())),
                Integer.getInteger("chaos.clients", clients),
                faults,
                Duration.ofSeconds(Long.getLong("chaos.broker-outage-seconds", outage.toSeconds())),
                Duration.ofSeconds(5),
                // between a client's requests: the machine is not saturated, so a killed replica restarts in seconds
                Duration.ofMillis(Long.getLong("chaos.think-ms", 10)),
                System.getProperty("chaos.pg.host", "127.0.0.1"),
                Integer.getInteger("chaos.pg.port", 5432),
                System.getProperty("chaos.pg.user", "postgres"),
                Repository.path("target/quarkus-app/quarkus-run.jar"),
                Repository.path("target/chaos"),
                List.of(Integer.getInteger("chaos.port.a", 18181), Integer.getInteger("chaos.port.b", 18182)),
                12, 2_000, 400, Target.RABBITMQ,
                Duration.ofSeconds(Long.getLong("chaos.partition-seconds", partition.toSeconds())),
                Integer.getInteger("chaos.burst-clients", 10 * clients),
                Duration.ofSeconds(Long.getLong("chaos.burst-seconds", 20)), database);
    }
}
