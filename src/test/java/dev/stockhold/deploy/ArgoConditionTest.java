package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.stockhold.deploy.ArgoCondition.Phase;

class ArgoConditionTest {

    @Test
    void shouldPassFailAndErrorAsArgoRolloutsDoes() {
        String errorRate = "isNaN(result[0]) || result[0] <= 0.01";
        assertThat(ArgoCondition.evaluate(errorRate, List.of(0.0)).phase()).isEqualTo(Phase.SUCCESSFUL);
        assertThat(ArgoCondition.evaluate(errorRate, List.of(Double.NaN)).phase()).isEqualTo(Phase.SUCCESSFUL);
        assertThat(ArgoCondition.evaluate(errorRate, List.of(0.3)).phase()).isEqualTo(Phase.FAILED);
        // a query that matched nothing: result[0] does not exist, the measurement is an error
        assertThat(ArgoCondition.evaluate(errorRate, List.of()).phase()).isEqualTo(Phase.ERROR);

        String age = "len(result) == 0 || result[0] <= 60";
        assertThat(ArgoCondition.evaluate(age, List.of()).phase()).isEqualTo(Phase.SUCCESSFUL);
        assertThat(ArgoCondition.evaluate(age, List.of(61.0)).phase()).isEqualTo(Phase.FAILED);
        assertThat(ArgoCondition.evaluate("(result[0] >= 1 && result[1] < 2) || len(result) != 2", List.of(1.0, 1.5)).phase())
                .isEqualTo(Phase.SUCCESSFUL);
        assertThat(ArgoCondition.evaluate("result[0] +", List.of(1.0)).phase()).isEqualTo(Phase.ERROR);
    }
}
