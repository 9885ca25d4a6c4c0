package dev.stockhold.clients;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.client.Operation;
import dev.stockhold.client.ProblemException;
import dev.stockhold.client.events.EventTypes;
import dev.stockhold.client.model.Problem;
import dev.stockhold.events.EventType;
import dev.stockhold.support.Repository;
import dev.stockhold.web.ProblemType;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The Java client follows the API the service serves: its model package is exactly what {@link JavaModel} writes from
 * /q/openapi, and its {@link Operation}s are exactly the document's /v1 operations. A change of the API that the
 * client does not follow fails here; {@code -Dclients.regenerate=true} rewrites the model from the document.
 */
@QuarkusTest
class ClientModelTest {

    private static final Path MODEL = Repository.path("clients/java/src/main/java/dev/stockhold/client/model");
    private static final Path EVENTS = Repository.path("clients/java/src/main/java/dev/stockhold/client/events/data");

    static JsonNode document() throws Exception {
        return new ObjectMapper().readTree(given().accept("application/json").get("/q/openapi?format=json").asString());
    }

    @Test
    void shouldHoldTheModelTheDocumentDescribes() throws Exception {
        Map<String, String> expected = JavaModel.sources(document());
        assertThat(expected).as("schemas in /q/openapi").hasSizeGreaterThan(40);
        assertThat(stale(MODEL, expected)).as("client model files that differ from /q/openapi (rewrite with -Dclients.regenerate=true)")
                .isEmpty();
    }

    @Test
    void shouldHoldTheServiceEventRecords() throws Exception {
        Map<String, String> expected = EventModel.sources(Repository.path("src/main/java/dev/stockhold/events"));
        assertThat(expected).as("event payload records").hasSizeGreaterThan(20);
        assertThat(stale(EVENTS, expected))
                .as("client event records that differ from the service's (rewrite with -Dclients.regenerate=true)").isEmpty();
    }

    @Test
    void shouldKnowEveryEventTypeWithItsRecord() {
        Map<String, String> service = new java.util.TreeMap<>();
        for (EventType type : EventType.values()) {
            service.put(type.type(), type.data().getSimpleName());
        }
        Map<String, String> client = new java.util.TreeMap<>();
        for (String type : EventTypes.known()) {
            client.put(type, EventTypes.dataOf(type).orElseThrow().getSimpleName());
        }
        assertThat(client).as("the client's event types and their records").isEqualTo(service);
    }

    /** The files of {@code dir} that differ from {@code expected}, after rewriting them when asked to. */
    private static List<String> stale(Path dir, Map<String, String> expected) throws Exception {
        if (Boolean.getBoolean("clients.regenerate")) {
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                for (Path file : old.toList()) {
                    Files.delete(file);
                }
            }
            for (Map.Entry<String, String> file : expected.entrySet()) {
                Files.writeString(dir.resolve(file.getKey()), file.getValue());
            }
        }
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> file : expected.entrySet()) {
            Path path = dir.resolve(file.getKey());
            if (!Files.exists(path) || !Files.readString(path).equals(file.getValue())) {
                stale.add(file.getKey());
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.map(f -> f.getFileName().toString()).filter(f -> !expected.containsKey(f))
                    .forEach(f -> stale.add(f + " (not generated)"));
        }
        return stale;
    }

    @Test
    void shouldTypeEveryProblemTheServiceAnswers() {
        List<String> untyped = new ArrayList<>();
        for (ProblemType type : ProblemType.values()) {
            Problem problem = new Problem(type.uri().toString(), type.title(), type.status(), "detail", List.of(), List.of());
            if (ProblemException.of(problem, null, 1).getClass() == ProblemException.class) {
                untyped.add(type.slug());
            }
        }
        assertThat(untyped).as("problem slugs without an exception class of their own in the Java client").isEmpty();
    }

    /** The document's /v1 operations, as {@code METHOD /path}. */
    static TreeSet<String> servedOperations() throws Exception {
        TreeSet<String> served = new TreeSet<>();
        document().path("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method -> {
            if (path.getKey().startsWith("/v1/")) {
                served.add(method.toUpperCase() + " " + path.getKey());
            }
        }));
        return served;
    }

    @Test
    void shouldCallEveryOperationOfTheApi() throws Exception {
        TreeSet<String> served = servedOperations();
        TreeSet<String> called = new TreeSet<>(Arrays.stream(Operation.values()).map(o -> o.method() + " " + o.path()).toList());
        assertThat(served).as("/v1 operations in /q/openapi").hasSizeGreaterThan(30);
        assertThat(called).as("the client's operations").isEqualTo(served);
    }

    @Test
    void shouldSendAndReadTheTypesOfEachOperation() throws Exception {
        JsonNode paths = document().path("paths");
        List<String> differ = new ArrayList<>();
        for (Operation operation : Operation.values()) {
            JsonNode described = paths.path(operation.path()).path(operation.method().toLowerCase(java.util.Locale.ROOT));
            String request = schemaName(described.path("requestBody").path("content").path("application/json").path("schema"));
            JsonNode responses = described.path("responses");
            JsonNode ok = responses.has("200") ? responses.get("200") : responses.path("201");
            String answer = schemaName(ok.path("content").path("application/json").path("schema"));
            String clientRequest = operation.request() == null ? "" : operation.request().getSimpleName();
            if (!request.equals(clientRequest) || !answer.equals(operation.answer().getSimpleName())) {
                differ.add(
                        operation + ": the document sends " + request + " and answers " + answer + "; the client " + clientRequest + " and "
                                + operation.answer().getSimpleName());
            }
        }
        assertThat(differ).as("operations whose request or answer type differs from /q/openapi").isEmpty();
    }

    /** A schema's component name ({@code X[]} for an array of one), or "" for none. */
    private static String schemaName(JsonNode schema) {
        if (schema.has("$ref")) {
            return schema.get("$ref").asText().replace("#/components/schemas/", "");
        }
        return schema.path("type").asText("").equals("array") ? schemaName(schema.path("items")) + "[]" : "";
    }
}
