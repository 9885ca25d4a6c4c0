package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.stockhold.support.Repository;

/**
 * The alerts of {@code k8s/overlays/prod/prometheus-rule.yaml} through Prometheus' own tool: the PrometheusRule's groups
 * as a rules file pass {@code promtool check rules}, and {@code k8s/monitoring/prometheus-rule.test.yaml} (input series
 * on both sides of every threshold and {@code for}) passes {@code promtool test rules}. Every alert has a test there.
 * Skipped, saying why, where promtool is missing.
 */
class PrometheusRulesIT {

    @Test
    void shouldPassPromtoolsCheckAndEveryAlertsUnitTests() throws Exception {
        Assumptions.assumeTrue(promtool("--version").exit() == 0,
                "promtool is not installed: the alert rule tests are skipped (apt-get install prometheus)");
        Path work = Files.createDirectories(Path.of("target/prometheus-rules"));
        YAMLMapper yaml = new YAMLMapper();
        JsonNode rule = yaml.readTree(Files.readString(Repository.path("k8s/overlays/prod/prometheus-rule.yaml")));
        Path rules = work.resolve("stockhold-rules.yaml");
        yaml.writeValue(rules.toFile(), yaml.createObjectNode().set("groups", rule.at("/spec/groups")));
        Path tests = Files.copy(Repository.path("k8s/monitoring/prometheus-rule.test.yaml"), work.resolve("prometheus-rule.test.yaml"),
                StandardCopyOption.REPLACE_EXISTING);

        ServiceContainer.Result check = promtool("check", "rules", rules.toString());
        assertThat(check.exit()).as(check.output()).isZero();
        ServiceContainer.Result unit = promtool("test", "rules", tests.toString());
        System.out.println(unit.output());
        assertThat(unit.exit()).as(unit.output()).isZero();

        Set<String> alerts = new HashSet<>(rule.at("/spec/groups").findValuesAsText("alert"));
        Set<String> tested = new HashSet<>();
        Matcher name = Pattern.compile("alertname:\\s*(\\S+)").matcher(Files.readString(tests));
        while (name.find()) {
            tested.add(name.group(1));
        }
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(5);
        assertThat(tested).as("alerts with a unit test").containsAll(alerts);
    }

    /**
     * Every query of the canary's AnalysisTemplate, evaluated by promtool over a canary with no series at all: each gives
     * no sample (not 0), which its condition fails (AnalysisTemplateTest); and the latency query over buckets that did
     * not move gives NaN, which fails too.
     */
    @Test
    void shouldGiveNoDataForEveryAnalysisQueryWithoutSeries() throws Exception {
        Assumptions.assumeTrue(promtool("--version").exit() == 0,
                "promtool is not installed: the analysis query tests are skipped (apt-get install prometheus)");
        Path work = Files.createDirectories(Path.of("target/prometheus-rules"));
        StringBuilder tests = new StringBuilder("rule_files: []\nevaluation_interval: 1m\ntests:\n"
                + "  - interval: 1m\n    input_series:\n"
                + "      - series: 'http_server_requests_seconds_bucket{version=\"other\",method=\"POST\",uri=\"/v1/reservations\",le=\"+Inf\"}'\n"
                + "        values: '0+10x10'\n"
                + "    promql_expr_test:\n");
        for (JsonNode metric : AnalysisTemplateTest.metrics()) {
            String query = metric.at("/provider/prometheus/query").asText().strip().replace("{{args.version}}", "canary")
                    .replace("\n", " ").replace("'", "''");
            tests.append("      - expr: '").append(query).append("'\n        eval_time: 5m\n        exp_samples: []\n");
        }
        tests.append("  - interval: 1m\n    input_series:\n");
        for (String le : List.of("0.1", "+Inf")) {
            tests.append(
                    "      - series: 'http_server_requests_seconds_bucket{version=\"canary\",method=\"POST\",uri=\"/v1/reservations\",le=\"")
                    .append(le).append("\"}'\n        values: '0x10'\n");
        }
        String p99 = AnalysisTemplateTest.metrics().stream().filter(m -> m.path("name").asText().equals("reservation-p99-latency"))
                .findFirst().orElseThrow().at("/provider/prometheus/query").asText().strip().replace("{{args.version}}", "canary");
        // NaN is the one value not equal to itself: "q != bool q" is 1 exactly where q is NaN
        tests.append("    promql_expr_test:\n      - expr: '(").append(p99).append(") != bool (").append(p99)
                .append(")'\n        eval_time: 5m\n        exp_samples:\n          - labels: '{}'\n            value: 1\n");
        Path file = work.resolve("analysis-template.test.yaml");
        Files.writeString(file, tests.toString());

        ServiceContainer.Result unit = promtool("test", "rules", file.toString());
        assertThat(unit.exit()).as(unit.output() + "\n" + tests).isZero();
    }

    private static ServiceContainer.Result promtool(String... args) {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        try {
            return ServiceContainer.run(command, Map.of(), Duration.ofSeconds(60));
        } catch (IOException e) {
            return new ServiceContainer.Result(-1, e.toString());
        }
    }
}
