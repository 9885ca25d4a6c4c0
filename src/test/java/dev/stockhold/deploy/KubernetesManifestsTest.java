package dev.stockhold.deploy;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.stockhold.support.Api;
import dev.stockhold.support.Management;
import dev.stockhold.support.Repository;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Renders every overlay with kustomize ({@code kubectl kustomize}) and checks the objects: built-in kinds against the
 * Kubernetes schema (fabric8's model, with no field left unknown), Argo Rollouts and Prometheus Operator kinds
 * against the fields they define, and everything the manifests name (probe paths, ports, env variables, metric
 * names) against what this service really serves.
 */
@QuarkusTest
class KubernetesManifestsTest {

    static final ObjectMapper YAML = new YAMLMapper(new YAMLFactory());

    static List<JsonNode> render(String overlay) throws IOException, InterruptedException {
        Process kubectl = new ProcessBuilder("kubectl", "kustomize", Repository.path("k8s/overlays/" + overlay).toString()).start();
        String out = new String(kubectl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(kubectl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kubectl.waitFor()).as("kubectl kustomize %s: %s", overlay, err).isZero();
        List<JsonNode> docs = new ArrayList<>();
        YAML.readerFor(JsonNode.class).readValues(new YAMLFactory().createParser(out)).forEachRemaining(n -> {
            if (n != null && !((JsonNode) n).isEmpty()) {
                docs.add((JsonNode) n);
            }
        });
        return docs;
    }

    static JsonNode one(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind));
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void shouldRenderOnlyObjectsValidAgainstTheirSchema(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);

        assertThat(docs).extracting(d -> d.path("kind").asText())
                .contains("Deployment", "Service", "ConfigMap", "PodDisruptionBudget", "HorizontalPodAutoscaler",
                        "ServiceAccount", "NetworkPolicy");
        for (JsonNode doc : docs) {
            String kind = doc.path("kind").asText();
            switch (kind) {
                case "Rollout" -> CustomResourceShapes.rollout(doc);
                case "AnalysisTemplate" -> CustomResourceShapes.analysisTemplate(doc);
                case "PrometheusRule" -> CustomResourceShapes.prometheusRule(doc);
                default -> {
                    HasMetadata typed = Serialization.unmarshal(YAML.writeValueAsString(doc), HasMetadata.class);
                    assertThat(typed.getClass().getSimpleName()).as("%s is a known Kubernetes kind", kind).isEqualTo(kind);
                    List<String> unknown = new ArrayList<>();
                    unknownFields(typed, kind, unknown, new HashSet<>());
                    assertThat(unknown).as("fields the Kubernetes schema does not define in %s", kind).isEmpty();
                }
            }
        }
    }

    /**
     * No overlay renders a Secret: {@code kubectl apply -k} would overwrite the operator's real one with placeholders.
     * The Deployment reads the Secret the operator creates (k8s/examples shows how).
     */
    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void shouldRenderNoSecretAndNoPlaceholder(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);

        assertThat(docs).extracting(d -> d.path("kind").asText()).doesNotContain("Secret");
        assertThat(YAML.writeValueAsString(docs)).doesNotContain("change-me").doesNotContain("guest");
        Deployment deployment = Serialization.unmarshal(YAML.writeValueAsString(one(docs, "Deployment")), Deployment.class);
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getEnvFrom())
                .anySatisfy(from -> assertThat(from.getSecretRef()).isNotNull()
                        .satisfies(ref -> assertThat(ref.getName()).isEqualTo("stockhold-secrets")));
    }

    /** The schema check is real: a misspelt field is caught, not silently dropped as the API server would. */
    @Test
    void shouldCatchAFieldTheSchemaDoesNotDefine() throws Exception {
        String typo = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: x}
                spec:
                  replica: 2
                  template:
                    spec:
                      containers: [{name: c, image: i, readinessProbe: {httpGet: {path: /q/health/ready, prot: 8080}}, readinesProbe: {}}]
                """;
        List<String> unknown = new ArrayList<>();

        unknownFields(Serialization.unmarshal(typo, HasMetadata.class), "Deployment", unknown, new HashSet<>());

        assertThat(String.join(" ", unknown)).contains("[replica]").contains("[readinesProbe]").contains("[prot]");
    }

    @Test
    void shouldCanaryInProdWithTheAnalysisAndAlerts() throws Exception {
        List<JsonNode> prod = render("prod");

        JsonNode rollout = one(prod, "Rollout");
        assertThat(rollout.at("/spec/workloadRef/name").asText()).isEqualTo("stockhold");
        assertThat(rollout.at("/spec/strategy/canary/steps").findValuesAsText("setWeight")).containsExactly("10", "25", "50");
        assertThat(rollout.at("/spec/strategy/canary/analysis/templates/0/templateName").asText())
                .isEqualTo(one(prod, "AnalysisTemplate").at("/metadata/name").asText());
        assertThat(one(prod, "HorizontalPodAutoscaler").at("/spec/scaleTargetRef/kind").asText()).isEqualTo("Rollout");
        assertThat(one(prod, "AnalysisTemplate").at("/spec/metrics").findValuesAsText("name"))
                .contains("error-rate", "reservation-p99-latency", "conflict-rate", "outbox-oldest-pending-age", "invariant-violations");
        assertThat(one(prod, "PrometheusRule").at("/spec/groups/0/rules").findValuesAsText("alert"))
                .containsExactlyInAnyOrder("StockholdDeadEvents", "StockholdOutboxBacklogOld", "StockholdBrokerUnreachable",
                        "StockholdInvariantViolation",
                        "StockholdReadinessFlapping");
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void shouldProbeAndScrapeWhatTheServiceServesOnTheManagementPortOnly(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        Deployment deployment = Serialization.unmarshal(YAML.writeValueAsString(one(docs, "Deployment")), Deployment.class);
        Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        Map<String, Integer> ports = new java.util.HashMap<>();
        container.getPorts().forEach(p -> ports.put(p.getName(), p.getContainerPort()));
        Map<String, String> config = YAML.convertValue(one(docs, "ConfigMap").path("data"), Map.class);
        Map<String, String> annotations = deployment.getSpec().getTemplate().getMetadata().getAnnotations();

        // the ports the service listens on: the ConfigMap's, or Quarkus' defaults (8080, management 9000)
        assertThat(ports).containsOnlyKeys("http", "management");
        assertThat(String.valueOf(ports.get("http"))).isEqualTo(config.getOrDefault("QUARKUS_HTTP_PORT", "8080"));
        assertThat(String.valueOf(ports.get("management"))).isEqualTo(config.getOrDefault("QUARKUS_MANAGEMENT_PORT", "9000"))
                .isEqualTo(annotations.get("prometheus.io/port"));
        for (var probe : List.of(container.getStartupProbe(), container.getLivenessProbe(), container.getReadinessProbe())) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("management");
            Management.given().get(probe.getHttpGet().getPath()).then().statusCode(200);
            given().get(probe.getHttpGet().getPath()).then().statusCode(404);
        }
        assertThat(container.getStartupProbe().getHttpGet().getPath()).isEqualTo("/q/health/started");
        assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
        assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
        Management.given().get(annotations.get("prometheus.io/path")).then().statusCode(200);
        // clients reach the API port only; the management port is open to the monitoring namespace only
        assertThat(one(docs, "Service").at("/spec/ports").findValuesAsText("targetPort")).containsExactly("http");
        JsonNode ingress = one(docs, "NetworkPolicy").at("/spec/ingress");
        for (JsonNode rule : ingress) {
            boolean management = rule.at("/ports").findValuesAsText("port").contains("management");
            if (management) {
                assertThat(rule.at("/from").isArray() && rule.at("/from").size() > 0).as("management port limited by from").isTrue();
                assertThat(rule.at("/ports").findValuesAsText("port")).containsExactly("management");
            }
        }
        assertThat(ingress.findValuesAsText("port")).contains("http", "management");
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void shouldRunNonRootReadOnlyWithLimits(String overlay) throws Exception {
        Deployment deployment = Serialization.unmarshal(YAML.writeValueAsString(one(render(overlay), "Deployment")), Deployment.class);
        var pod = deployment.getSpec().getTemplate().getSpec();
        Container container = pod.getContainers().get(0);

        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
        // SIGTERM: serve on for the shutdown delay (readiness DOWN), finish in-flight requests, let the relay finish its
        // batch and hand its leases back; all of it before the kubelet's SIGKILL (ContainerImageIT measures it)
        Properties app = new Properties();
        try (var in = Files.newInputStream(Path.of("src/main/resources/application.properties"))) {
            app.load(in);
        }
        long shutdownSeconds = Duration.parse("PT" + app.getProperty("quarkus.shutdown.delay")).toSeconds()
                + Duration.parse("PT" + app.getProperty("quarkus.shutdown.timeout")).toSeconds()
                + ConfigProvider.getConfig().getValue("stockhold.relay.publish-timeout", Duration.class).toSeconds() + 2;
        assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThan(shutdownSeconds);
        assertThat(container.getVolumeMounts()).extracting(m -> m.getMountPath()).contains("/tmp");
    }

    @ParameterizedTest
    @ValueSource(strings = { "dev", "prod" })
    void shouldSetOnlyVariablesTheServiceReads(String overlay) throws Exception {
        List<JsonNode> docs = render(overlay);
        Set<String> names = new HashSet<>();
        one(docs, "ConfigMap").path("data").fieldNames().forEachRemaining(names::add);
        // the Secret the operator creates, as the example names it
        YAML.readTree(Files.readString(Repository.path("k8s/examples/secret.example.yaml"))).path("stringData").fieldNames()
                .forEachRemaining(names::add);
        Set<String> known = new HashSet<>();
        for (String property : ConfigProvider.getConfig().getPropertyNames()) {
            known.add(property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase());
        }
        // read through @ConfigProperty with defaults, named in docs/operations.md (Configuration)
        known.addAll(
                List.of("RABBITMQ_HOST", "RABBITMQ_PORT", "RABBITMQ_USERNAME", "RABBITMQ_PASSWORD", "MP_JWT_VERIFY_PUBLICKEY_LOCATION",
                        "QUARKUS_MANAGEMENT_PORT", "STOCKHOLD_SECURITY_AUDIENCE", "STOCKHOLD_SECURITY_CURSOR_SECRET",
                        "STOCKHOLD_EVENTS_SCHEMA_BASE_URI"));

        assertThat(names).allSatisfy(name -> assertThat(known).as("%s is read by the service", name).contains(name));
        assertThat(names).contains("QUARKUS_DATASOURCE_JDBC_URL", "QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD",
                "MP_JWT_VERIFY_ISSUER", "MP_JWT_VERIFY_PUBLICKEY_LOCATION", "RABBITMQ_HOST");
    }

    @Test
    void shouldQueryOnlyMetricsTheServiceExports() throws Exception {
        Api api = Api.newTenant();
        api.setStock("PROM-1", 1);
        api.reserve(Api.key(), "PROM-1", 1).then().statusCode(201);
        String exported = Management.given().get("/q/metrics").asString();
        List<JsonNode> prod = render("prod");
        List<String> queries = new ArrayList<>(one(prod, "AnalysisTemplate").at("/spec/metrics").findValuesAsText("query"));
        queries.addAll(one(prod, "PrometheusRule").at("/spec/groups/0/rules").findValuesAsText("expr"));
        queries.addAll(new ObjectMapper().readTree(Files.readString(Repository.path("k8s/monitoring/stockhold-dashboard.json")))
                .findValuesAsText("expr"));
        Matcher metric = Pattern.compile("\\b((?:stockhold|http_server|agroal|worker_pool|jvm|process)_[a-z_]+)\\b")
                .matcher(String.join("\n", queries));
        Set<String> used = new HashSet<>();
        while (metric.find()) {
            used.add(metric.group(1));
        }

        assertThat(used).contains("stockhold_invariant_violations", "stockhold_outbox_dead", "http_server_requests_seconds_bucket",
                "stockhold_problems_total", "stockhold_events_published_total", "agroal_awaiting_count");
        assertThat(used).allSatisfy(name -> assertThat(exported).as("metric %s", name).contains(name + "{"));
        assertThat(exported)
                .containsPattern("http_server_requests_seconds_bucket\\{[^}]*method=\"POST\"[^}]*uri=\"/v1/reservations\"[^}]*version=");
    }

    /** Collects every additionalProperties entry in a fabric8 object graph: fields the schema does not define. */
    private static void unknownFields(Object node, String path, List<String> unknown, Set<Object> seen) throws Exception {
        if (node == null || !seen.add(node) || !node.getClass().getPackageName().startsWith("io.fabric8")) {
            return;
        }
        for (Method getter : node.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get") || getter.getName().equals("getClass")) {
                continue;
            }
            Object value = getter.invoke(node);
            if (getter.getName().equals("getAdditionalProperties") && value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                unknown.add(path + ": " + extra.keySet());
            } else if (value instanceof KubernetesResource) {
                unknownFields(value, path + "." + getter.getName().substring(3), unknown, seen);
            } else if (value instanceof Collection<?> list) {
                for (Object item : list) {
                    unknownFields(item, path + "." + getter.getName().substring(3) + "[]", unknown, seen);
                }
            } else if (value instanceof Map<?, ?> map && !getter.getName().equals("getAdditionalProperties")) {
                for (Object item : map.values()) {
                    unknownFields(item, path + "." + getter.getName().substring(3) + "{}", unknown, seen);
                }
            }
        }
    }

    static Iterable<String> fields(JsonNode node) {
        return () -> node.fieldNames();
    }

    static Set<String> fieldSet(JsonNode node) {
        Set<String> names = new HashSet<>();
        StreamSupport.stream(fields(node).spliterator(), false).forEach(names::add);
        return names;
    }

    static boolean isObject(JsonNode node) {
        return node instanceof ObjectNode;
    }
}
