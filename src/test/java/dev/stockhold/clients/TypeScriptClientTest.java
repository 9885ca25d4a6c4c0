package dev.stockhold.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.client.Operation;
import dev.stockhold.support.NpmTools;
import dev.stockhold.support.Repository;
import dev.stockhold.support.Tokens;
import dev.stockhold.web.ProblemType;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The TypeScript client (clients/typescript) through Node: its types are what openapi-typescript writes from this
 * service's /q/openapi, it compiles against them, its own tests pass, it packs as an npm package, and behind the
 * {@link FaultProxy} every call of the {@link ClientFaults} scenario acts exactly once.
 */
@QuarkusTest
class TypeScriptClientTest {

    private static final Path DIR = Repository.path("clients/typescript");
    private static final Path WORK = Repository.path("target/clients");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean built;

    @Inject
    DataSource dataSource;

    /** Installs the dev tools (npm ci), regenerates the types from /q/openapi into target and compiles the client. */
    @BeforeEach
    void build() throws Exception {
        NpmTools.requireNpm("the TypeScript client's tests");
        if (built) {
            return;
        }
        Files.createDirectories(WORK);
        if (!Files.exists(DIR.resolve("node_modules/.bin/tsc"))) {
            run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), "npm-ci");
        }
        Files.writeString(WORK.resolve("openapi.json"), JSON.writeValueAsString(ClientModelTest.document()));
        run(List.of("node_modules/.bin/openapi-typescript", WORK.resolve("openapi.json").toString(), "-o",
                WORK.resolve("openapi.ts").toString()),
                Map.of(), "openapi-typescript");
        if (Boolean.getBoolean("clients.regenerate")) {
            Files.copy(WORK.resolve("openapi.ts"), DIR.resolve("src/openapi.ts"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        run(List.of("node_modules/.bin/tsc", "-p", "tsconfig.json"), Map.of(), "tsc");
        built = true;
    }

    @Test
    void shouldHoldTheTypesTheDocumentDescribes() throws Exception {
        assertThat(Files.readString(DIR.resolve("src/openapi.ts")))
                .as("clients/typescript/src/openapi.ts as openapi-typescript writes it from "
                        + "/q/openapi (rewrite with -Dclients.regenerate=true)")
                .isEqualTo(Files.readString(WORK.resolve("openapi.ts")));
        String printed = run(List.of("node", "-e", "import('./dist/index.js').then(m => console.log(JSON.stringify(m.OPERATIONS)))"),
                Map.of(),
                "operations");
        TreeSet<String> called = new TreeSet<>();
        TreeSet<String> retried = new TreeSet<>();
        JSON.readTree(lastLine(printed)).forEach(op -> {
            called.add(op.get(0).asText().toUpperCase() + " " + op.get(1).asText());
            retried.add(op.get(0).asText().toUpperCase() + " " + op.get(1).asText() + " " + op.get(2).asText());
        });
        assertThat(called).as("the TypeScript client's operations").isEqualTo(ClientModelTest.servedOperations());
        assertThat(retried).as("each operation retried as the Java client retries it")
                .isEqualTo(new TreeSet<>(Arrays.stream(Operation.values())
                        .map(o -> o.method() + " " + o.path() + " " + o.retry().name().toLowerCase(java.util.Locale.ROOT)).toList()));
        String slugs = run(
                List.of("node", "-e", "import('./dist/index.js').then(m => console.log(JSON.stringify(Object.keys(m.PROBLEM_CLASSES))))"),
                Map.of(), "problems");
        TreeSet<String> typed = new TreeSet<>();
        JSON.readTree(lastLine(slugs)).forEach(slug -> typed.add(slug.asText()));
        TreeSet<String> answered = new TreeSet<>(Arrays.stream(ProblemType.values()).map(ProblemType::slug).toList());
        assertThat(typed).as("problem slugs with an error class in the TypeScript client").isEqualTo(answered);
    }

    @Test
    void shouldPassItsOwnTests() throws Exception {
        assertThat(run(List.of("npm", "test"), Map.of(), "npm-test")).contains("# fail 0").contains("# pass ");
    }

    @Test
    void shouldRunTheTour() throws Exception {
        Map<String, String> env = Map.of("STOCKHOLD_URL", "http://localhost:" + RestAssured.port, "STOCKHOLD_TOKEN",
                Tokens.allRoles("t-" + java.util.UUID.randomUUID().toString().substring(0, 13)));
        assertThat(lastLine(run(List.of("node", "scenario/tour.mjs"), env, "tour"))).isEqualTo("{\"tour\":\"done\"}");
    }

    @Test
    void shouldPackAsAnNpmPackage() throws Exception {
        JsonNode packed = JSON.readTree(run(List.of("npm", "pack", "--dry-run", "--json", "--ignore-scripts"), Map.of(), "npm-pack"));
        List<String> files = new ArrayList<>();
        packed.get(0).path("files").forEach(f -> files.add(f.path("path").asText()));
        assertThat(files).contains("package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/openapi.d.ts")
                .noneMatch(
                        f -> f.startsWith("src/") || f.startsWith("test/") || f.startsWith("scenario/") || f.startsWith("node_modules/"));
    }

    @Test
    void shouldActOncePerCallWhenThirtyPercentOfAnswersAreLost() throws Exception {
        ClientFaults scenario = new ClientFaults(dataSource);
        ClientFaults lost = new ClientFaults(dataSource);
        try (FaultProxy faulty = new FaultProxy(RestAssured.port, 0.3, Duration.ofMillis(1500), 42);
                FaultProxy blackHole = new FaultProxy(RestAssured.port, 0, Duration.ofMillis(1500), 7)) {
            blackHole.blackHole(true);
            Map<String, String> env = Map.ofEntries(Map.entry("FAULTY", faulty.url()), Map.entry("LOST", blackHole.url()),
                    Map.entry("STOCKHOLD_TOKEN", Tokens.allRoles(scenario.api.tenant())),
                    Map.entry("LOST_TOKEN", Tokens.allRoles(lost.api.tenant())),
                    Map.entry("RESERVED", scenario.reserved), Map.entry("ADJUSTED", scenario.adjusted),
                    Map.entry("FULFILLED", scenario.fulfilled),
                    Map.entry("EDITED", scenario.edited), Map.entry("LOST_RESERVED", lost.reserved),
                    Map.entry("LOST_ADJUSTED", lost.adjusted),
                    Map.entry("LOST_FULFILLED", lost.fulfilled), Map.entry("LOST_EDITED", lost.edited),
                    Map.entry("RESERVATIONS", Integer.toString(ClientFaults.RESERVATIONS)),
                    Map.entry("ADJUSTMENTS", Integer.toString(ClientFaults.ADJUSTMENTS)),
                    Map.entry("EDITS", Integer.toString(ClientFaults.EDITS)));
            JsonNode done = JSON.readTree(lastLine(run(List.of("node", "scenario/fault-scenario.mjs"), env, "fault-scenario")));
            String made = scenario.verify();
            System.out.printf("[clients] typescript: calls=%d attempts=%d retries=%d replayed reservations=%d; proxy %s; %s%n",
                    done.path("calls").asLong(), done.path("attempts").asLong(), done.path("retries").asLong(),
                    done.path("replayed").asLong(),
                    faulty.summary(), made);
            assertThat(faulty.faults()).as("faults injected").isPositive();
            assertThat(done.path("retries").asLong()).as("retries").isPositive();
            assertThat(done.path("movements").asInt()).as("adjust entries read page by page").isEqualTo(ClientFaults.ADJUSTMENTS);
            assertThat(lost.reservationsWithReference("lost-1")).as("reservations of the lost call").isEqualTo(1);
            assertThat(lost.field(lost.adjusted, "onHand")).isEqualTo(ClientFaults.STOCK + 5);
            assertThat(lost.field(lost.fulfilled, "onHand")).isEqualTo(ClientFaults.STOCK - 3);
            assertThat(lost.field(lost.edited, "held")).isEqualTo(5);
        }
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        return lines[lines.length - 1];
    }

    /** Runs a command in clients/typescript; fails with its output unless it exits 0 within five minutes. */
    private static String run(List<String> command, Map<String, String> env, String name) throws Exception {
        File log = WORK.resolve(name + ".log").toFile();
        ProcessBuilder builder = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true).redirectOutput(log);
        builder.environment().putAll(env);
        Process process = builder.start();
        boolean exited = process.waitFor(5, TimeUnit.MINUTES);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = Files.readString(log.toPath());
        assertThat(exited && process.exitValue() == 0).as("%s exited 0; its output:%n%s", String.join(" ", command), output).isTrue();
        return output;
    }
}
