package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of the Argo Rollouts (argoproj.io/v1alpha1) and Prometheus Operator (monitoring.coreos.com/v1) kinds
 * the manifests use, as their CRDs define them: an unknown or misspelt field fails here instead of being ignored by
 * the cluster.
 */
final class CustomResourceShapes {

    private CustomResourceShapes() {
    }

    static void rollout(JsonNode doc) {
        header(doc, "argoproj.io/v1alpha1");
        only(doc.path("spec"), "replicas", "revisionHistoryLimit", "selector", "workloadRef", "template", "strategy",
                "minReadySeconds", "progressDeadlineSeconds", "paused");
        only(doc.at("/spec/workloadRef"), "apiVersion", "kind", "name", "scaleDown");
        assertThat(doc.at("/spec/workloadRef/scaleDown").asText()).isIn("never", "onsuccess", "progressively");
        only(doc.at("/spec/strategy"), "canary", "blueGreen");
        only(doc.at("/spec/strategy/canary"), "steps", "analysis", "canaryMetadata", "stableMetadata", "maxSurge",
                "maxUnavailable", "canaryService", "stableService", "trafficRouting");
        only(doc.at("/spec/strategy/canary/analysis"), "templates", "startingStep", "args");
        for (JsonNode step : doc.at("/spec/strategy/canary/steps")) {
            only(step, "setWeight", "pause", "analysis", "setCanaryScale");
            if (step.has("pause")) {
                only(step.path("pause"), "duration");
            }
        }
        for (JsonNode arg : doc.at("/spec/strategy/canary/analysis/args")) {
            only(arg, "name", "value", "valueFrom");
        }
    }

    static void analysisTemplate(JsonNode doc) {
        header(doc, "argoproj.io/v1alpha1");
        only(doc.path("spec"), "args", "metrics", "dryRun", "measurementRetention");
        for (JsonNode metric : doc.at("/spec/metrics")) {
            only(metric, "name", "interval", "initialDelay", "count", "failureLimit", "inconclusiveLimit",
                    "consecutiveErrorLimit", "successCondition", "failureCondition", "provider");
            assertThat(metric.path("successCondition").asText()).as("metric %s states its threshold", metric.path("name")).isNotEmpty();
            only(metric.path("provider"), "prometheus");
            only(metric.at("/provider/prometheus"), "address", "query", "timeout", "insecure", "headers");
        }
    }

    static void prometheusRule(JsonNode doc) {
        header(doc, "monitoring.coreos.com/v1");
        only(doc.path("spec"), "groups");
        for (JsonNode group : doc.at("/spec/groups")) {
            only(group, "name", "interval", "rules", "partial_response_strategy", "limit");
            for (JsonNode rule : group.path("rules")) {
                only(rule, "alert", "record", "expr", "for", "keep_firing_for", "labels", "annotations");
                assertThat(rule.path("expr").asText()).isNotBlank();
            }
        }
    }

    private static void header(JsonNode doc, String apiVersion) {
        assertThat(doc.path("apiVersion").asText()).isEqualTo(apiVersion);
        only(doc, "apiVersion", "kind", "metadata", "spec");
        assertThat(doc.at("/metadata/name").asText()).isNotBlank();
    }

    private static void only(JsonNode node, String... allowed) {
        assertThat(node.isObject()).as("%s is an object", node).isTrue();
        assertThat(KubernetesManifestsTest.fieldSet(node)).as("fields of %s", node).isSubsetOf(Set.of(allowed));
    }
}
