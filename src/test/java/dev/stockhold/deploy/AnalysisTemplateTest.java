package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.stockhold.deploy.ArgoCondition.Phase;
import dev.stockhold.support.Repository;

/**
 * Every metric of the canary's AnalysisTemplate fails a measurement with no data or NaN (a canary whose metrics are
 * missing is not a healthy one) and passes a healthy value, judged as Argo Rollouts judges it. That its queries give no
 * data, not zero, when the series are absent is PrometheusRulesIT's promtool test.
 */
class AnalysisTemplateTest {

    @Test
    void shouldFailEveryMetricOnNoDataOrNaN() throws Exception {
        List<JsonNode> metrics = metrics();
        assertThat(metrics).hasSizeGreaterThanOrEqualTo(5);
        for (JsonNode metric : metrics) {
            String condition = metric.path("successCondition").asText();
            String name = metric.path("name").asText();
            assertThat(ArgoCondition.evaluate(condition, List.of()).phase()).as("%s on no data", name).isEqualTo(Phase.FAILED);
            assertThat(ArgoCondition.evaluate(condition, List.of(Double.NaN)).phase()).as("%s on NaN", name).isEqualTo(Phase.FAILED);
            assertThat(ArgoCondition.evaluate(condition, List.of(0.0)).phase()).as("%s on a healthy 0", name).isEqualTo(Phase.SUCCESSFUL);
        }
    }

    static List<JsonNode> metrics() throws Exception {
        JsonNode template = new YAMLMapper().readTree(Files.readString(Repository.path("k8s/overlays/prod/analysis-template.yaml")));
        List<JsonNode> metrics = new java.util.ArrayList<>();
        template.at("/spec/metrics").forEach(metrics::add);
        return metrics;
    }
}
