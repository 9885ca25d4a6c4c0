package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Repository;
import dev.stockhold.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The README's tour, run as a newcomer runs it (bash and curl, its bash block as written) against the service, for a
 * tenant of its own: every step must succeed and show what its comment says.
 */
@QuarkusTest
class TourTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void theTourShowsWhatItsCommentsSay() throws Exception {
        String readme = Files.readString(Repository.path("README.md"));
        int tour = readme.indexOf("## A short tour");
        int start = readme.indexOf("```bash\n", tour) + "```bash\n".length();
        String script = readme.substring(start, readme.indexOf("```\n", start));

        ProcessBuilder bash = new ProcessBuilder("bash", "-e", "-o", "pipefail", "-c", script).redirectErrorStream(true);
        bash.environment().put("S", root.toString().replaceAll("/$", ""));
        bash.environment().put("TOKEN", Tokens.allRoles("tour-" + UUID.randomUUID()));
        Process process = bash.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();

        String uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
        assertThat(out).as(out).containsPattern("reservation " + uuid + "\\n(?s).*reservation " + uuid + "\\n(?s).*reservation " + uuid)
                .containsIgnoringCase("idempotent-replayed: true")
                .contains("stale set: 412")
                .contains("\"status\":\"FULFILLED\"")
                .contains("\"kind\":\"release\"", "\"kind\":\"fulfil\"", "\"kind\":\"confirm\"", "\"kind\":\"set\"", "\"kind\":\"adjust\"")
                .contains("\"placement\":[]",
                        "\"allocations\":[{\"location\":\"WH-2\",\"quantity\":22},{\"location\":\"default\",\"quantity\":8}],\"shortfall\":10")
                .contains("\"status\":\"CANCELLED\"", "\"drift\":-2")
                .containsPattern("transfer " + uuid).contains("\"received\":3,\"returned\":2,\"inTransit\":0,\"status\":\"CANCELLED\"")
                .contains("\"onHand\":23,", "\"channel\":\"b2b\"");
    }
}
