package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.support.BrokerQueue;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Repository;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * The JVM image, built from {@code docker/Dockerfile.jvm} on a locally built Debian base, run the way
 * {@code k8s/base/deployment.yaml} runs the pod (user 185, read-only root with a tmpfs /tmp, all capabilities dropped,
 * no privilege escalation, the deployment's memory limit, env from the ConfigMap and the example Secret), against
 * this machine's PostgreSQL and RabbitMQ. Skipped, saying why, where podman is not installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerImageIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long after SIGTERM the clients still send: the time a Service's endpoints take to drop the pod. */
    private static final Duration ENDPOINT_PROPAGATION = Duration.ofSeconds(2);

    private Container pod;
    private long memoryLimit;
    private long tmpLimit;
    private int grace;
    private ContainerFixture fixture;
    private ServiceContainer container;
    private Duration toStarted;
    private Duration toReady;

    @BeforeAll
    void startTheImage() throws Exception {
        Assumptions.assumeTrue(ServiceContainer.podmanAvailable(),
                "podman (with runc) is not installed: the container image test is skipped (apt-get install podman runc debootstrap)");
        Deployment deployment;
        try (InputStream in = Files.newInputStream(Repository.path("k8s/base/deployment.yaml"))) {
            deployment = Serialization.unmarshal(in, Deployment.class);
        }
        pod = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        memoryLimit = Quantity.getAmountInBytes(pod.getResources().getLimits().get("memory")).longValueExact();
        tmpLimit = Quantity.getAmountInBytes(deployment.getSpec().getTemplate().getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals("tmp")).findFirst().orElseThrow().getEmptyDir().getSizeLimit()).longValueExact();
        grace = deployment.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds().intValue();

        fixture = new ContainerFixture("container-it", Map.of("MEMORY_LIMIT", Long.toString(memoryLimit),
                "TMP_SIZE", Long.toString(tmpLimit), "GRACE_SECONDS", Integer.toString(grace)));
        container = fixture.start("stockhold-it", ServiceContainer.freePort(), Map.of("STOCKHOLD_VERSION", "0.1.0-it"));
        toStarted = container.awaitHealthy("/q/health/started", Duration.ofSeconds(60));
        toReady = toStarted.plus(container.awaitHealthy("/q/health/ready", Duration.ofSeconds(60)));
        System.out.printf("[container] image %d MB, started after %d ms, ready after %d ms%n",
                ServiceContainer.imageSize() / 1_000_000, toStarted.toMillis(), toReady.toMillis());
    }

    @AfterAll
    void removeTheContainer() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    @Order(1)
    void shouldBeStartedReadyAndLiveWellInsideTheStartupProbesBudget() throws Exception {
        assertThat(get("/q/health/live").statusCode()).isEqualTo(200);
        assertThat(get("/q/health/ready").statusCode()).isEqualTo(200);
        // the startup probe gives the pod period x failureThreshold; the measured start must leave a wide margin
        // for a slower node (a factor of 4)
        var startup = pod.getStartupProbe();
        long budgetMillis = startup.getPeriodSeconds() * startup.getFailureThreshold() * 1000L;
        assertThat(toReady.toMillis() * 4).as("ready after %s, startup budget %d ms", toReady, budgetMillis)
                .isLessThan(budgetMillis);
        // the image's AppCDS archive, written at build by the same JVM: the JVM maps it only when it can use it
        assertThat(container.exec("sh", "-c", "grep -c /opt/stockhold/app-cds.jsa /proc/1/maps").output().trim())
                .as("mappings of the AppCDS archive in the JVM").isNotEqualTo("0");
    }

    @Test
    @Order(2)
    void shouldReserveConfirmAndPublishItsEventsFromInsideTheContainer() throws Exception {
        try (BrokerQueue broker = new BrokerQueue()) {
            String sku = "SKU-" + UUID.randomUUID().toString().substring(0, 8);
            assertThat(send("PUT", "/v1/items/" + sku + "/stock/default", "{\"onHand\":10}", null).statusCode()).isEqualTo(200);
            HttpResponse<String> created = send("POST", "/v1/reservations",
                    "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":3}]}", "key-" + UUID.randomUUID());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String id = JSON.readTree(created.body()).get("id").asText();
            assertThat(JSON.readTree(send("GET", "/v1/reservations/" + id, null, null).body()).get("status").asText())
                    .isEqualTo("HELD");
            assertThat(send("POST", "/v1/reservations/" + id + "/confirm", null, null).statusCode()).isEqualTo(200);

            Eventually.await(Duration.ofSeconds(20), "both reservation events at the broker",
                    () -> broker.of(fixture.tenant).stream().map(BrokerQueue.Delivery::type).distinct().count() == 2);
            assertThat(broker.of(fixture.tenant)).extracting(BrokerQueue.Delivery::type)
                    .containsOnly("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.confirmed.v1");
            assertThat(broker.of(fixture.tenant)).extracting(BrokerQueue.Delivery::subject).containsOnly(id);
        }
    }

    @Test
    @Order(3)
    void shouldSizeTheHeapFromTheContainersMemoryLimit() throws Exception {
        // the limit the kernel enforces on the container (cgroup v1 or v2) is the deployment's
        String cgroup = container.exec("sh", "-c",
                "cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes").output().trim();
        assertThat(Long.parseLong(cgroup)).isEqualTo(memoryLimit);

        // the running JVM's own view, from its metrics: max heap (the sum of the heap pools' maxima) and what the
        // rest of the JVM has committed
        String metrics = get("/q/metrics").body();
        long maxHeap = sum(metrics, "jvm_memory_max_bytes", "heap");
        long nonHeap = sum(metrics, "jvm_memory_committed_bytes", "nonheap");
        long rss = Long.parseLong(container.exec("sh", "-c", "awk '/VmRSS/ {print $2}' /proc/1/status").output().trim()) * 1024;
        System.out.printf("[container] limit %d MiB, max heap %d MiB, non-heap committed %d MiB, RSS %d MiB%n",
                memoryLimit >> 20, maxHeap >> 20, nonHeap >> 20, rss >> 20);
        assertThat(maxHeap).as("max heap follows MaxRAMPercentage=75 of the limit").isBetween(memoryLimit / 2, memoryLimit * 3 / 4);
        assertThat(maxHeap + nonHeap).as("a full heap plus the rest of the JVM still fits the limit").isLessThan(memoryLimit);
        assertThat(rss).isLessThan(memoryLimit);
    }

    @Test
    @Order(4)
    void shouldWriteNothingOutsideTmp() throws Exception {
        ServiceContainer.Result write = container.exec("sh", "-c", "touch /opt/stockhold/probe");
        assertThat(write.exit()).isNotZero();
        assertThat(write.output()).contains("Read-only file system");
        // and even on a writable root the code is root's: nothing in the application is the runtime user's or writable
        // by it
        assertThat(container.exec("sh", "-c", "find /opt/stockhold ! -user 0 -o -perm /022").output().trim()).isEmpty();
        assertThat(container.exec("sh", "-c", "stat -c %u /opt/stockhold /opt").output().trim()).isEqualTo("0\n0");
        assertThat(container.exec("id", "-u").output().trim()).isEqualTo("185");
        assertThat(container.exec("sh", "-c", "grep CapEff /proc/1/status").output()).contains("0000000000000000");
        assertThat(container.exec("sh", "-c", "grep NoNewPrivs /proc/1/status").output()).contains("1");
        // everything above ran on a read-only root: nothing failed to write, and /tmp holds what was written
        assertThat(container.logs()).doesNotContain("Read-only file system").doesNotContain("\"level\":\"ERROR\"");
        long tmpBytes = Long.parseLong(container.exec("du", "-sk", "/tmp").output().split("\\s+")[0]) * 1024;
        System.out.printf("[container] /tmp holds %d KiB of the %d MiB emptyDir%n", tmpBytes >> 10, tmpLimit >> 20);
        assertThat(tmpBytes).isLessThan(tmpLimit / 4);
    }

    /**
     * What Kubernetes does when it deletes the pod: SIGTERM, and at the same time the pod leaves its Service's
     * endpoints, which kube-proxy and ingresses take a moment to apply. The clients here keep sending for
     * {@link #ENDPOINT_PROPAGATION} after SIGTERM (new requests on new and kept-alive connections), then stop, as
     * traffic routed by a Service would. Every request sent must be answered; none may see its connection dropped.
     */
    @Test
    @Order(5)
    void shouldAnswerEveryRequestSentWhileStoppingWithSigterm() throws Exception {
        String sku = "SKU-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(send("PUT", "/v1/items/" + sku + "/stock/default", "{\"onHand\":1000000}", null).statusCode()).isEqualTo(200);
        Matcher relay = Pattern.compile("Outbox relay (\\S+) started").matcher(container.logs());
        assertThat(relay.find()).isTrue();
        String relayId = relay.group(1);

        Map<Integer, LongAdder> answered = new ConcurrentHashMap<>();
        LongAdder answeredAfterSigterm = new LongAdder();
        List<String> dropped = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean sigtermSent = new AtomicBoolean();
        AtomicBoolean routed = new AtomicBoolean(true);
        CountDownLatch warm = new CountDownLatch(200);
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            Thread client = new Thread(() -> {
                while (routed.get()) {
                    boolean afterSigterm = sigtermSent.get();
                    try {
                        HttpResponse<String> response = send("POST", "/v1/reservations",
                                "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}", "key-" + UUID.randomUUID());
                        answered.computeIfAbsent(response.statusCode(), s -> new LongAdder()).increment();
                        if (afterSigterm) {
                            answeredAfterSigterm.increment();
                        }
                        warm.countDown();
                    } catch (IOException e) {
                        dropped.add(e.toString());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "sigterm-client-" + c);
            client.start();
            clients.add(client);
        }
        assertThat(warm.await(60, TimeUnit.SECONDS)).isTrue();

        long sigterm = System.nanoTime();
        CompletableFuture<Duration> stopped = CompletableFuture.supplyAsync(() -> {
            try {
                return container.stop(grace);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        sigtermSent.set(true);
        // readiness turns DOWN at once while the service still serves
        Eventually.await(Duration.ofSeconds(3), "readiness DOWN after SIGTERM", () -> status("/q/health/ready") == 503);
        long readinessDown = System.nanoTime() - sigterm;
        Thread.sleep(Math.max(0, ENDPOINT_PROPAGATION.toMillis() - TimeUnit.NANOSECONDS.toMillis(readinessDown)));
        routed.set(false);
        for (Thread client : clients) {
            client.join(Duration.ofSeconds(30).toMillis());
        }
        Duration stopTook = stopped.get(grace + 30L, TimeUnit.SECONDS);
        String exitCode = container.state("{{.State.ExitCode}}");
        String logs = container.logs();
        System.out.printf("[container] SIGTERM under load: readiness DOWN after %d ms, exited after %d ms (grace %d s), "
                + "exit code %s; answered %s, %d of them sent after SIGTERM; dropped %d%n",
                TimeUnit.NANOSECONDS.toMillis(readinessDown), stopTook.toMillis(), grace, exitCode, answered,
                answeredAfterSigterm.sum(), dropped.size());

        assertThat(dropped).as("requests sent but never answered").isEmpty();
        assertThat(answeredAfterSigterm.sum()).as("requests sent after SIGTERM and answered").isPositive();
        assertThat(answered.keySet()).as("statuses").containsOnly(201);
        assertThat(stopTook).isLessThan(Duration.ofSeconds(grace));
        // 143 = terminated by SIGTERM through the JVM's shutdown hooks; 137 would be the SIGKILL after the grace period
        assertThat(exitCode).isEqualTo("143");
        assertThat(logs).contains("Outbox relay " + relayId + " stopped");
        try (Connection db = fixture.db();
                PreparedStatement leased = db.prepareStatement("SELECT count(*) FROM outbox_events WHERE locked_by = ?")) {
            leased.setString(1, relayId);
            try (ResultSet rows = leased.executeQuery()) {
                rows.next();
                assertThat(rows.getLong(1)).as("leases still held by the stopped relay").isZero();
            }
        }
    }

    private int status(String path) {
        try {
            return get(path).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static long sum(String metrics, String name, String area) {
        Pattern line = Pattern.compile("^" + name + "\\{area=\"" + area + "\"[^}]*} (\\S+)$", Pattern.MULTILINE);
        Matcher m = line.matcher(metrics);
        long total = 0;
        while (m.find()) {
            double value = Double.parseDouble(m.group(1));
            if (value > 0) {
                total += (long) value;
            }
        }
        return total;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return fixture.get(container, path);
    }

    private HttpResponse<String> send(String method, String path, String body, String idempotencyKey)
            throws IOException, InterruptedException {
        return fixture.send(container, method, path, body, idempotencyKey);
    }
}
