package dev.stockhold.chaos;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * PostgreSQL with automatic failover from Debian's packages: a pg_auto_failover monitor and two nodes on extra ports,
 * with synchronous replication ({@code synchronous_standby_names = 'ANY 1 (...)'}, checked at start), run as the
 * {@code postgres} user under a fresh directory. The service reaches it with a multi-host JDBC URL and
 * {@code targetServerType=primary}. Its faults: {@code pg_autoctl perform failover} (the nodes swap roles) and
 * {@code kill -9} of the primary's postmaster (its keeper restarts it).
 */
final class HaCluster implements AutoCloseable {

    static final int MONITOR_PORT = 5433;
    static final List<Integer> NODE_PORTS = List.of(5434, 5435);

    private final Path dir;
    private final String path;
    private final List<Process> processes = new ArrayList<>();

    private HaCluster(Path dir, String path) {
        this.dir = dir;
        this.path = path;
    }

    /** Whether pg_auto_failover is installed and this process is root (it runs the cluster as postgres). */
    static boolean available() {
        return binaries() != null && PartitionedNetwork.available() && new File("/usr/bin/pg_autoctl").canExecute();
    }

    /** The newest PostgreSQL's bin directory, or null. */
    private static String binaries() {
        String[] versions = new File("/usr/lib/postgresql").list();
        if (versions == null || versions.length == 0) {
            return null;
        }
        Arrays.sort(versions);
        return "/usr/lib/postgresql/" + versions[versions.length - 1] + "/bin";
    }

    /** Creates and runs the monitor, then the first node (primary), then the second (synchronous standby). */
    static HaCluster start(Path log) throws Exception {
        Path dir = Files.createTempDirectory("stockhold-ha-");
        for (String sub : List.of("config", "data", "run")) {
            Files.createDirectories(dir.resolve(sub));
        }
        Commands.run(List.of("chown", "-R", "postgres", dir.toString()));
        HaCluster cluster = new HaCluster(dir, binaries() + ":/usr/bin:/bin");
        try {
            cluster.spawn(log, "create", "monitor", "--pgdata", dir.resolve("monitor").toString(), "--pgport",
                    Integer.toString(MONITOR_PORT), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--run");
            cluster.await(Duration.ofSeconds(60), cluster::monitorUp, "monitor");
            for (int i = 0; i < NODE_PORTS.size(); i++) {
                cluster.spawn(log, "create", "postgres", "--pgdata", dir.resolve("node" + (i + 1)).toString(), "--pgport",
                        Integer.toString(NODE_PORTS.get(i)), "--hostname", "127.0.0.1", "--name", "node" + (i + 1), "--monitor",
                        "postgres://autoctl_node@127.0.0.1:" + MONITOR_PORT + "/pg_auto_failover", "--auth", "trust", "--no-ssl",
                        "--run");
                int nodes = i + 1;
                cluster.await(Duration.ofSeconds(120), () -> cluster.settled(nodes), "node" + nodes);
            }
            String sync = cluster.primaryQuery("SHOW synchronous_standby_names");
            if (!sync.startsWith("ANY 1")) {
                throw new IllegalStateException("replication is not synchronous: synchronous_standby_names = " + sync);
            }
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    /** The nodes' reported and assigned states, by node name, from the monitor. */
    Map<String, String> states() {
        Map<String, String> states = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + MONITOR_PORT + "/pg_auto_failover",
                "postgres", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT nodename, reportedstate, goalstate FROM pgautofailover.node")) {
            while (rs.next()) {
                states.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3));
            }
        } catch (SQLException e) {
            // the monitor is not up yet
        }
        return states;
    }

    private boolean monitorUp() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + MONITOR_PORT + "/pg_auto_failover",
                "postgres", "")) {
            return c.isValid(2);
        }
    }

    /** One primary and the rest secondaries, each in the state it was assigned (a single node: "single"). */
    private boolean settled(int nodes) {
        Map<String, String> states = states();
        if (states.size() != nodes) {
            return false;
        }
        if (nodes == 1) {
            return states.values().iterator().next().equals("single/single");
        }
        return states.values().stream().filter("primary/primary"::equals).count() == 1
                && states.values().stream().filter("secondary/secondary"::equals).count() == nodes - 1;
    }

    /** Both nodes back to primary + synchronous secondary after a fault, within {@code timeout}. */
    Duration awaitSettled(Duration timeout) throws InterruptedException {
        Instant start = Instant.now();
        await(timeout, () -> settled(NODE_PORTS.size()), "primary and secondary");
        return Duration.between(start, Instant.now());
    }

    /**
     * The formation settled, every node healthy in the monitor's view, and the primary streaming to a synchronous
     * standby, for three checks in a row a second apart. A database fault is injected only then: pg_auto_failover drops a standby it finds unhealthy from the
     * quorum (the primary goes to wait_primary and commits without waiting for it), and a failover asked for at that
     * moment promoted the lagging standby while the old primary, unable to demote from wait_primary, kept committing:
     * acknowledged writes were lost by the database, which no service above it can survive. That double fault is the
     * database's, not one Stockhold promises anything about; an operator's planned failover waits for the same.
     */
    void awaitSynchronous(Duration timeout) throws InterruptedException {
        int[] inARow = { 0 };
        await(timeout, () -> {
            inARow[0] = settled(NODE_PORTS.size()) && healthy() && synchronousStandbys() >= 1 ? inARow[0] + 1 : 0;
            if (inARow[0] < 3) {
                Thread.sleep(1_000);
                return false;
            }
            return true;
        }, "a synchronous standby");
    }

    /**
     * Every node found healthy by the monitor's own checks and reporting a running PostgreSQL. The nodes' states can
     * settle while the monitor still holds a failed health check of a node that restarted: a failover asked for then met
     * the monitor's verdict "unhealthy" in the same second and left the formation with two primaries.
     */
    private boolean healthy() {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + MONITOR_PORT + "/pg_auto_failover",
                "postgres", "");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT count(*) FILTER (WHERE health = 1 AND reportedpgisrunning), count(*) FROM pgautofailover.node")) {
            return rs.next() && rs.getInt(1) == NODE_PORTS.size() && rs.getInt(2) == NODE_PORTS.size();
        } catch (SQLException e) {
            return false;
        }
    }

    private int synchronousStandbys() {
        try {
            return Integer.parseInt(primaryQuery(
                    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state IN ('sync', 'quorum')"));
        } catch (SQLException | RuntimeException e) {
            return 0;
        }
    }

    /** The node that takes writes now. */
    int primaryPort() {
        for (int port : NODE_PORTS) {
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
                    Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT pg_is_in_recovery()")) {
                if (rs.next() && !rs.getBoolean(1)) {
                    return port;
                }
            } catch (SQLException e) {
                // down or restarting: not the primary now
            }
        }
        throw new IllegalStateException("no primary among " + NODE_PORTS);
    }

    private String primaryQuery(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + primaryPort() + "/postgres", "postgres",
                ""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * {@code pg_autoctl perform failover}: the standby is promoted, the old primary rejoins as standby. The monitor's
     * {@code perform_failover} can lose a deadlock against the nodes' own state reports; PostgreSQL then rolled the
     * whole call back, so it is asked again (at most three times).
     */
    void failover() throws IOException, InterruptedException {
        for (int attempt = 1;; attempt++) {
            try {
                Commands.run(pgAutoctl("perform", "failover", "--pgdata", dir.resolve("monitor").toString()));
                return;
            } catch (IllegalStateException e) {
                if (attempt == 3 || !e.getMessage().contains("deadlock detected")) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    /** SIGKILL of the primary's postmaster: no checkpoint, no goodbye to the clients. */
    void killPrimary() throws IOException, InterruptedException {
        int port = primaryPort();
        Path pid = dir.resolve("node" + (NODE_PORTS.indexOf(port) + 1)).resolve("postmaster.pid");
        Commands.run(List.of("kill", "-9", Files.readAllLines(pid).get(0).trim()));
    }

    private List<String> pgAutoctl(String... args) {
        // pg_autoctl keeps its configuration and state under HOME and XDG_*: inside the directory, removed with it
        List<String> command = new ArrayList<>(List.of("runuser", "-u", "postgres", "--", "env", "PATH=" + path, "HOME=" + dir,
                "XDG_CONFIG_HOME=" + dir.resolve("config"), "XDG_DATA_HOME=" + dir.resolve("data"),
                "XDG_RUNTIME_DIR=" + dir.resolve("run"), "pg_autoctl"));
        command.addAll(List.of(args));
        return command;
    }

    private void spawn(Path log, String... args) throws IOException {
        processes.add(new ProcessBuilder(pgAutoctl(args)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private void await(Duration timeout, Condition condition, String what) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (Exception e) {
                // not yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("pg_auto_failover: " + what + " not ready within " + timeout + "; states " + states());
    }

    /**
     * Stops the nodes, then the monitor (SIGTERM to each {@code pg_autoctl run}, which stops its PostgreSQL), kills
     * whatever of theirs is still running after a minute, and removes the directory.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.toHandle().children().forEach(ProcessHandle::destroy);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().map(c -> c.contains(dir.toString())).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
        Thread.sleep(500);
        Commands.run(List.of("rm", "-rf", dir.toString()));
    }
}
