package dev.stockhold.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A single-node KRaft Kafka broker run from the {@code org.apache.kafka:kafka_2.13} jars as its own process, the way a
 * container runs it: {@code kafka-storage format} of a fresh log directory, then the server with a generated config
 * on free ports. Auto-creation of topics is off, so the service must create its topics itself. The classpath is
 * resolved once by Maven from {@code src/test/kafka/pom.xml} into {@code target/kafka-broker/classpath.txt}.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final Path HOME = Repository.path("target/kafka-broker");
    /** A bound on the broker's start, generous for a loaded machine; a broker that listens sooner is used at once. */
    private static final Duration LISTEN_WITHIN = Duration.ofSeconds(180);

    /**
     * Starts tried, each on fresh ports and a fresh log directory: a port found free may be taken by another process
     * before the broker binds it, which a test cannot prevent, only survive.
     */
    private static final int STARTS = 3;

    private Path dir;
    private int port;
    private int controllerPort;
    private Process process;

    public KafkaBroker() {
        place();
    }

    /** A fresh log directory and two free ports, different from each other. */
    private void place() {
        this.dir = HOME.resolve("broker-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
        this.port = freePort();
        int controller = freePort();
        while (controller == port) { // two binds to port 0 may be handed the same port once the first is closed
            controller = freePort();
        }
        this.controllerPort = controller;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /**
     * Formats the log directory and starts the broker; returns once it accepts connections. A start that fails is
     * cleaned up and tried again on fresh ports; the error after the last names every try's cause.
     */
    public KafkaBroker start() {
        List<String> failures = new ArrayList<>();
        for (int start = 1; start <= STARTS; start++) {
            if (start > 1) {
                place();
            }
            try {
                formatAndLaunch();
                return this;
            } catch (IllegalStateException | UncheckedIOException e) {
                failures.add("start " + start + " (port " + port + ", controller " + controllerPort + "): " + e.getMessage());
                System.err.printf("KafkaBroker: start %d of %d failed: %s%n", start, STARTS, e.getMessage());
                close();
            }
        }
        throw new IllegalStateException("the Kafka broker did not start in " + STARTS + " tries:\n" + String.join("\n", failures));
    }

    private void formatAndLaunch() {
        try {
            Files.createDirectories(dir.resolve("data"));
            Files.writeString(dir.resolve("server.properties"), String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER",
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "log.dirs=" + dir.resolve("data"),
                    "auto.create.topics.enable=false",
                    "offsets.topic.replication.factor=1",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    ""));
            run(List.of("kafka.tools.StorageTool", "format", "-t", clusterId(),
                    "-c", dir.resolve("server.properties").toString()), dir.resolve("format.log"));
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code kill -9}: no shutdown, no flush beyond what the broker already wrote. */
    public void kill() {
        process.destroyForcibly();
        waitFor(process);
    }

    /** Starts the same broker again on the same ports and data. */
    public void restart() {
        launch();
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            waitFor(process);
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            // best effort: target/ is cleaned by the build anyway
        }
    }

    private void launch() {
        try {
            process = java(List.of("-Xmx512m", "kafka.Kafka", dir.resolve("server.properties").toString()), dir.resolve("broker.log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Instant deadline = Instant.now().plus(LISTEN_WITHIN);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Kafka broker exited: " + tail(dir.resolve("broker.log")));
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(200);
            }
        }
        process.destroyForcibly();
        waitFor(process);
        throw new IllegalStateException("the Kafka broker did not listen within " + LISTEN_WITHIN + ": " + tail(dir.resolve("broker.log")));
    }

    /** The last lines of a log, so that a failure on a machine that keeps no build directory says why. */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return log + " ends with:\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return log + " (unreadable: " + e.getMessage() + ")";
        }
    }

    private static Process java(List<String> args, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classpath()));
        command.addAll(args);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void run(List<String> args, Path log) throws IOException {
        Process p = java(args, log);
        waitFor(p);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(args + " failed: " + tail(log));
        }
    }

    /** The broker's jars, resolved by Maven once per build directory. */
    private static synchronized String classpath() throws IOException {
        Path file = HOME.resolve("classpath.txt");
        if (!Files.exists(file)) {
            Files.createDirectories(HOME);
            Process mvn = new ProcessBuilder(Repository.path("mvnw").toString(), "-B", "-q", "-f",
                    Repository.path("src/test/kafka/pom.xml").toString(), "dependency:build-classpath",
                    "-Dmdep.outputFile=" + file.toAbsolutePath()).redirectErrorStream(true)
                    .redirectOutput(HOME.resolve("resolve.log").toFile()).start();
            waitFor(mvn);
            if (mvn.exitValue() != 0 || !Files.exists(file)) {
                throw new IllegalStateException("could not resolve the Kafka broker's jars: " + tail(HOME.resolve("resolve.log")));
            }
        }
        return Files.readString(file).trim();
    }

    private static void waitFor(Process p) {
        try {
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A KRaft cluster id: 16 random bytes, URL-safe base64 without padding. */
    private static String clusterId() {
        byte[] bytes = new byte[16];
        new java.security.SecureRandom().nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
