package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.stockhold.deploy.ArgoCondition.Phase;
import dev.stockhold.deploy.ArgoCondition.Verdict;
import dev.stockhold.support.Eventually;
import dev.stockhold.support.Repository;

/**
 * The canary analysis of {@code k8s/overlays/prod/analysis-template.yaml}, evaluated for real: two replicas of the image,
 * labelled as the stable and the canary version, under load, scraped by a real Prometheus, and every metric of the
 * AnalysisTemplate queried through Prometheus' HTTP API and judged as Argo Rollouts judges it ({@link ArgoCondition}).
 * A healthy canary passes; a broken one (its database connections read-only, so every write answers 5xx: a canary
 * pointed at a replica) fails. Every Grafana dashboard query and every alert's expression returns series from the
 * running service. Skipped, saying why, where podman or Prometheus is missing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CanaryAnalysisIT {

    static final String STABLE = "1.4.0";
    static final String CANARY = "1.5.0";
    static final String BROKEN_CANARY = "1.5.1";
    private static final Duration LOAD = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Series that come from kube-state-metrics, not from the service: the promtool unit tests cover those alerts. */
    /** The counters whose final values, once in Prometheus, say a scrape after the load has landed. */
    private static final List<String> SCRAPED_COUNTERS = List.of("stockhold_reservations_total", "http_server_requests_seconds_count");
    private static final Pattern CLUSTER_SERIES = Pattern.compile("\\bkube_[a-z_]+");

    private ContainerFixture fixture;
    private ServiceContainer stable;
    private ServiceContainer canary;
    private PrometheusServer prometheus;
    /** Chosen before the broken canary starts: Prometheus scrapes its management port from the beginning. */
    private int brokenManagementPort;
    private final String sku = "SKU-" + UUID.randomUUID().toString().substring(0, 8);
    private final String soldOut = "SOLD-OUT-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    void startTwoVersionsAndPrometheus() throws Exception {
        Assumptions.assumeTrue(ServiceContainer.podmanAvailable(),
                "podman (with runc) is not installed: the canary analysis test is skipped (apt-get install podman runc debootstrap)");
        Assumptions.assumeTrue(PrometheusServer.available(),
                "prometheus is not installed: the canary analysis test is skipped (apt-get install prometheus)");
        fixture = new ContainerFixture("canary-it", Map.of());
        stable = fixture.start("stockhold-stable", ServiceContainer.freePort(), Map.of("STOCKHOLD_VERSION", STABLE));
        canary = fixture.start("stockhold-canary", ServiceContainer.freePort(), Map.of("STOCKHOLD_VERSION", CANARY));
        stable.awaitHealthy("/q/health/ready", Duration.ofSeconds(60));
        canary.awaitHealthy("/q/health/ready", Duration.ofSeconds(60));
        assertThat(fixture.send(stable, "PUT", "/v1/items/" + sku + "/stock/default", "{\"onHand\":1000000}", null).statusCode())
                .isEqualTo(200);
        assertThat(fixture.send(stable, "PUT", "/v1/items/" + soldOut + "/stock/default", "{\"onHand\":0}", null).statusCode())
                .isEqualTo(200);
        brokenManagementPort = ServiceContainer.freePort();
        prometheus = PrometheusServer.start(fixture.work, ServiceContainer.freePort(), List.of("127.0.0.1:" + stable.managementPort,
                "127.0.0.1:" + canary.managementPort, "127.0.0.1:" + brokenManagementPort));
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    @Order(1)
    void shouldPassAHealthyCanary() throws Exception {
        Map<Integer, LongAdder> statuses = drive(List.of(stable, canary));
        System.out.println("[canary] healthy run, answers " + statuses);

        Map<String, Verdict> canaryVerdicts = analyse(CANARY);
        Map<String, Verdict> stableVerdicts = analyse(STABLE);
        print(CANARY, canaryVerdicts);
        print(STABLE, stableVerdicts);
        assertThat(canaryVerdicts).isNotEmpty().allSatisfy((metric, verdict) -> assertThat(verdict.phase())
                .as("%s: %s", metric, verdict).isEqualTo(Phase.SUCCESSFUL));
        assertThat(stableVerdicts).allSatisfy((metric, verdict) -> assertThat(verdict.phase())
                .as("%s: %s", metric, verdict).isEqualTo(Phase.SUCCESSFUL));
    }

    @Test
    @Order(2)
    void shouldAnswerEveryDashboardAndAlertQueryFromTheRunningService() throws Exception {
        for (String query : dashboardQueries()) {
            assertThat(prometheus.query(query)).as("dashboard query %s", query).isNotEmpty();
        }
        for (String expr : alertExpressions()) {
            if (CLUSTER_SERIES.matcher(expr).find()) {
                continue;
            }
            // the measured side of the alert has series; the alert itself does not fire on a healthy service
            String measured = expr.replaceAll("\\s*(>|<|==|!=|>=|<=)\\s*[0-9.]+\\s*$", "");
            assertThat(measured).isNotEqualTo(expr);
            assertThat(prometheus.query(measured)).as("alert expression %s", measured).isNotEmpty();
            assertThat(prometheus.query(expr)).as("alert %s on a healthy service", expr).isEmpty();
        }
    }

    @Test
    @Order(3)
    void shouldFailACanaryThatAnswers5xx() throws Exception {
        canary.stop(45);
        // the fault: the canary's connections are read-only (a JDBC URL pointing at a replica), so reads and health
        // work while every write fails
        ServiceContainer broken = fixture.start("stockhold-canary-broken", ServiceContainer.freePort(), Map.of(
                "STOCKHOLD_VERSION", BROKEN_CANARY,
                "QUARKUS_DATASOURCE_JDBC_URL", ContainerFixture.SERVER + fixture.database
                        + "?options=-c%20default_transaction_read_only%3Don",
                "QUARKUS_FLYWAY_MIGRATE_AT_START", "false",
                "QUARKUS_MANAGEMENT_PORT", Integer.toString(brokenManagementPort)));
        broken.awaitHealthy("/q/health/started", Duration.ofSeconds(60));
        Map<Integer, LongAdder> statuses = drive(List.of(stable, broken));
        System.out.println("[canary] broken run, answers " + statuses);

        Map<String, Verdict> brokenVerdicts = analyse(BROKEN_CANARY);
        print(BROKEN_CANARY, brokenVerdicts);
        assertThat(brokenVerdicts.get("error-rate").phase()).as("error-rate: %s", brokenVerdicts.get("error-rate"))
                .isEqualTo(Phase.FAILED);
        assertThat(analyse(STABLE)).allSatisfy((metric, verdict) -> assertThat(verdict.phase())
                .as("stable %s: %s", metric, verdict).isEqualTo(Phase.SUCCESSFUL));
    }

    /**
     * Reservations on both replicas for {@link #LOAD}, paced below saturation (a canary sees a share of real traffic,
     * not a benchmark): most succeed, one in ten asks for a sku with nothing on hand (409), and some are confirmed or
     * cancelled, so every metric the analysis and the dashboard read has moved.
     */
    private Map<Integer, LongAdder> drive(List<ServiceContainer> replicas) throws Exception {
        Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
        AtomicLong sent = new AtomicLong();
        long end = System.nanoTime() + LOAD.toNanos();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            ServiceContainer to = replicas.get(c % replicas.size());
            Thread client = new Thread(() -> {
                while (System.nanoTime() < end) {
                    long n = sent.incrementAndGet();
                    String line = n % 10 == 0 ? soldOut : sku;
                    try {
                        HttpResponse<String> reserved = fixture.send(to, "POST", "/v1/reservations",
                                "{\"lines\":[{\"sku\":\"" + line + "\",\"quantity\":1}]}", "key-" + UUID.randomUUID());
                        statuses.computeIfAbsent(reserved.statusCode(), s -> new LongAdder()).increment();
                        if (reserved.statusCode() == 201 && n % 3 != 0) {
                            String id = JSON.readTree(reserved.body()).get("id").asText();
                            String action = n % 3 == 1 ? "confirm" : "cancel";
                            fixture.send(to, "POST", "/v1/reservations/" + id + "/" + action, null, null);
                        }
                        Thread.sleep(5);
                    } catch (IOException e) {
                        statuses.computeIfAbsent(-1, s -> new LongAdder()).increment();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            client.start();
            clients.add(client);
        }
        for (Thread client : clients) {
            client.join();
        }
        for (ServiceContainer replica : replicas) {
            awaitScraped(replica);
        }
        return statuses;
    }

    /**
     * Waits until Prometheus holds a scrape of {@code replica} taken after the load ended: its request and reservation
     * counts there reach what the replica itself reports now.
     */
    private void awaitScraped(ServiceContainer replica) throws Exception {
        Map<String, Double> counts = new LinkedHashMap<>();
        for (String line : fixture.send(replica, "GET", "/q/metrics", null, null).body().split("\n")) {
            for (String counter : SCRAPED_COUNTERS) {
                if (line.startsWith(counter + "{")) {
                    counts.merge(counter, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
                }
            }
        }
        assertThat(counts).as("counters of %s", replica.managementPort).containsKey("http_server_requests_seconds_count");
        String instance = "127.0.0.1:" + replica.managementPort;
        Eventually.await(Duration.ofSeconds(15), "a scrape of " + instance + " after the load", () -> {
            try {
                for (Map.Entry<String, Double> counter : counts.entrySet()) {
                    List<PrometheusServer.Sample> scraped = prometheus
                            .query("sum(" + counter.getKey() + "{instance=\"" + instance + "\"})");
                    if (scraped.isEmpty() || scraped.get(0).value() < counter.getValue()) {
                        return false;
                    }
                }
                return true;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }

    /** Every metric of the AnalysisTemplate for {@code version}: query with the args filled in, then the condition. */
    private Map<String, Verdict> analyse(String version) throws Exception {
        JsonNode template = new YAMLMapper().readTree(Files.readString(Repository.path("k8s/overlays/prod/analysis-template.yaml")));
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        for (JsonNode metric : template.at("/spec/metrics")) {
            String query = metric.at("/provider/prometheus/query").asText().replace("{{args.version}}", version);
            List<Double> result = prometheus.query(query).stream().map(PrometheusServer.Sample::value).toList();
            verdicts.put(metric.path("name").asText(), ArgoCondition.evaluate(metric.path("successCondition").asText(), result));
        }
        return verdicts;
    }

    private static void print(String version, Map<String, Verdict> verdicts) {
        verdicts.forEach((metric, verdict) -> System.out.printf("[canary] %-6s %-26s %-10s result=%s%s%n", version, metric,
                verdict.phase(), verdict.result(), verdict.error() == null ? "" : " (" + verdict.error() + ")"));
    }

    /** The dashboard's queries with Grafana's interval variable resolved as Grafana would for a short range. */
    private static List<String> dashboardQueries() throws IOException {
        JsonNode dashboard = JSON.readTree(Files.readString(Repository.path("k8s/monitoring/stockhold-dashboard.json")));
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asText().replace("$__rate_interval", "1m"));
            }
        }
        assertThat(queries).hasSizeGreaterThan(20);
        return queries;
    }

    private static List<String> alertExpressions() throws IOException {
        JsonNode rule = new YAMLMapper().readTree(Files.readString(Repository.path("k8s/overlays/prod/prometheus-rule.yaml")));
        List<String> exprs = new ArrayList<>();
        for (JsonNode group : rule.at("/spec/groups")) {
            for (JsonNode alert : group.path("rules")) {
                exprs.add(alert.path("expr").asText().trim());
            }
        }
        assertThat(exprs).hasSizeGreaterThanOrEqualTo(5);
        return exprs;
    }
}
