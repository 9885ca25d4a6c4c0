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
