package dev.stockhold.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.stockhold.support.Repository;

/**
 * The service image run by podman through {@code docker/local-image}, exactly as that script runs a pod of
 * {@code k8s/base/deployment.yaml} (user 185, read-only root, tmpfs /tmp, no capabilities, the memory limit), on the
 * host network at its own port.
 */
final class ServiceContainer implements AutoCloseable {

    static final String SCRIPT = Repository.path("docker/local-image").toString();
    private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    final String name;
    final int port;
    /** The management interface (health, metrics): a port of its own, never the API's. */
    final int managementPort;

    private ServiceContainer(String name, int port, int managementPort) {
        this.name = name;
        this.port = port;
        this.managementPort = managementPort;
    }

    /** A port nothing listens on now (the system picks it), for a container's HTTP or management interface. */
    static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Whether podman (and runc, which it needs here) can run containers on this machine. */
    static boolean podmanAvailable() {
        try {
            return run(List.of("podman", "--runtime", "runc", "info"), Map.of(), Duration.ofSeconds(60)).exit() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Builds the local base (once) and the service image from target/quarkus-app. */
    static void buildImage(Path log) throws IOException {
        Result built = run(List.of("bash", SCRIPT, "build"), Map.of(), Duration.ofMinutes(10));
        Files.writeString(log, built.output());
        if (built.exit() != 0) {
            throw new IllegalStateException("image build failed (" + built.exit() + "): see " + log);
        }
    }

    static long imageSize() throws IOException {
        return Long.parseLong(run(List.of("bash", SCRIPT, "size"), Map.of(), Duration.ofSeconds(30)).output().trim());
    }

    /**
     * Starts a container; {@code env} is applied on top of the ConfigMap and example Secret, {@code mounts} are
     * host file to container path (read-only, as a Secret volume would be).
     */
    static ServiceContainer start(String name, int port, Map<String, String> env, Map<Path, String> mounts,
            Map<String, String> scriptEnv, Path workDir) throws IOException {
        run(List.of("podman", "--runtime", "runc", "rm", "-f", "-t", "0", name), Map.of(), Duration.ofSeconds(60));
        Path envFile = workDir.resolve(name + ".env");
        Files.writeString(envFile, env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n", "", "\n")));
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT, "run", name, envFile.toAbsolutePath().toString(), "--"));
        for (Map.Entry<Path, String> mount : mounts.entrySet()) {
            Files.setPosixFilePermissions(mount.getKey(), PosixFilePermissions.fromString("rw-r--r--"));
            command.add("-v");
            command.add(mount.getKey().toAbsolutePath() + ":" + mount.getValue() + ":ro");
        }
        Result started = run(command, scriptEnv, Duration.ofMinutes(1));
        if (started.exit() != 0) {
            throw new IllegalStateException("podman run failed: " + started.output());
        }
        return new ServiceContainer(name, port, Integer.parseInt(env.get("QUARKUS_MANAGEMENT_PORT")));
    }

    /** Polls a health endpoint until it answers 200; @return the time it took. */
    Duration awaitHealthy(String path, Duration timeout) throws InterruptedException, IOException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(2)).build();
        while (System.nanoTime() < deadline) {
            try {
                if (PROBE.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return Duration.ofNanos(System.nanoTime() - start);
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!"running".equals(state("{{.State.Status}}"))) {
                throw new IllegalStateException(name + " is not running: " + logs());
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException(name + " not healthy at " + path + " within " + timeout + ": " + logs());
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The URL of a path: health and metrics on the management port, everything else on the API port. */
    String url(String path) {
        boolean management = path.startsWith("/q/health") || path.startsWith("/q/metrics");
        return "http://127.0.0.1:" + (management ? managementPort : port) + path;
    }

    /** A command inside the running container (its shell and coreutils). */
    Result exec(String... command) throws IOException {
        List<String> full = new ArrayList<>(List.of("podman", "--runtime", "runc", "exec", name));
        full.addAll(List.of(command));
        return run(full, Map.of(), Duration.ofSeconds(30));
    }

    String state(String format) throws IOException {
        return run(List.of("podman", "--runtime", "runc", "inspect", "--format", format, name), Map.of(),
                Duration.ofSeconds(30)).output().trim();
    }

    String logs() throws IOException {
        return run(List.of("podman", "--runtime", "runc", "logs", name), Map.of(), Duration.ofSeconds(30)).output();
    }

    /** {@code podman stop}: SIGTERM, then SIGKILL after the grace period. @return how long it took. */
    Duration stop(int graceSeconds) throws IOException {
        long start = System.nanoTime();
        Result stopped = run(List.of("podman", "--runtime", "runc", "stop", "-t", Integer.toString(graceSeconds), name),
                Map.of(), Duration.ofSeconds(graceSeconds + 30L));
        if (stopped.exit() != 0) {
            throw new IllegalStateException("podman stop failed: " + stopped.output());
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Override
    public void close() throws IOException {
        run(List.of("podman", "--runtime", "runc", "rm", "-f", "-t", "0", name), Map.of(), Duration.ofSeconds(60));
    }

    record Result(int exit, String output) {
    }

    static Result run(List<String> command, Map<String, String> env, Duration timeout) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + timeout);
            }
            return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException(e);
        }
    }
}
