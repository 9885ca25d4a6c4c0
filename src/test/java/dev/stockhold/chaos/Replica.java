package dev.stockhold.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Stockhold process: the packaged jar, prod profile, on its own port; started through {@code launcher} (e.g.
 * {@code ip netns exec NS}) and reached at {@code host} when it runs in a {@link PartitionedNetwork}.
 */
final class Replica {

    final String name;
    final int port;
    final String host;
    private final List<String> launcher;
    private final Path jar;
    private final Path log;
    private final Map<String, String> env;
    private volatile Process process;
    private final int managementPort;

    Replica(String name, String host, int port, List<String> launcher, Path jar, Path log, Map<String, String> env) {
        this.name = name;
        this.host = host;
        this.port = port;
        this.launcher = launcher;
        this.jar = jar;
        this.log = log;
        this.env = env;
        this.managementPort = freePort();
    }

    /** A port nothing listens on now, kept across restarts: health and metrics on the management interface. */
    private static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    void start() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java, "-Xmx512m", "-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        process = builder.start();
    }

    void awaitReady(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ": see " + log);
            }
            if (Probe.ready(this).status() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " not ready within " + timeout + ": see " + log);
    }

    /** SIGKILL: no shutdown hook, no graceful drain, leases and connections left as they are. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM: graceful shutdown. */
    void stop() throws InterruptedException {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroy();
            if (!p.waitFor(40, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    /** Health and metrics live on the management interface, not on the API port. */
    String managementUrl() {
        return "http://" + host + ":" + managementPort;
    }

    String baseUrl() {
        return "http://" + host + ":" + port;
    }
}
