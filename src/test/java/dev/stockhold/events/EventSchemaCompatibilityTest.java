package dev.stockhold.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.stockhold.support.EventContract;
import dev.stockhold.support.SchemaCompatibility;

/**
 * Every event version released stays readable by the consumers built on it: its schema in the last release
 * (src/test/resources/events/released) against today's. A breaking change fails here with the place it breaks; it
 * belongs in a new version of the event.
 */
class EventSchemaCompatibilityTest {

    private static final Path RELEASED = Path.of("src/test/resources/events/released");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldKeepEveryReleasedEventVersionCompatible() throws IOException {
        List<Path> released;
        try (Stream<Path> files = Files.list(RELEASED)) {
            released = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(released).hasSizeGreaterThanOrEqualTo(EventType.values().length);
        for (Path file : released) {
            String type = file.getFileName().toString().replaceFirst("\\.json$", "");
            EventType current = EventType.ofType(type).orElse(null);
            assertThat(current).as("%s was released: its type must still be published (retire it in docs/events.md first)", type)
                    .isNotNull();
            List<String> breaking = SchemaCompatibility.breakingChanges(JSON.readTree(file.toFile()),
                    JSON.readTree(EventContract.schemaText(current)));
            assertThat(breaking).as("%s breaks its released schema: publish the change as a new version", type).isEmpty();
        }
    }

    @Test
    void shouldNameEachKindOfBreakingChange() throws IOException {
        JsonNode released = JSON.readTree(EventContract.schemaText(EventType.CREATED));

        ObjectNode renamed = released.deepCopy();
        ObjectNode properties = (ObjectNode) renamed.path("properties");
        properties.set("expiry", properties.remove("expiresAt"));
        ((ArrayNode) renamed.path("required")).removeAll().add("id").add("status").add("lines").add("expiry").add("createdAt");
        assertThat(SchemaCompatibility.breakingChanges(released, renamed)).containsExactly("/: no longer requires \"expiresAt\"",
                "/: removes or renames property \"expiresAt\"");

        ObjectNode retyped = released.deepCopy();
        ((ObjectNode) retyped.path("properties").path("lines").path("items").path("properties").path("quantity")).put("type", "string");
        assertThat(SchemaCompatibility.breakingChanges(released, retyped))
                .containsExactly("/properties/lines/items/properties/quantity: changes the type from \"integer\" to \"string\"");

        JsonNode confirmed = JSON.readTree(EventContract.schemaText(EventType.CONFIRMED));
        ObjectNode widened = confirmed.deepCopy();
        ((ArrayNode) widened.path("properties").path("status").path("enum")).add("SOLD");
        assertThat(SchemaCompatibility.breakingChanges(confirmed, widened)).as("widening is compatible").isEmpty();
        assertThat(SchemaCompatibility.breakingChanges(widened, confirmed))
                .containsExactly("/properties/status: narrows the enum, removing [SOLD]");

        ObjectNode optionalAdded = released.deepCopy();
        ((ObjectNode) optionalAdded.path("properties")).putObject("channel").put("type", "string");
        assertThat(SchemaCompatibility.breakingChanges(released, optionalAdded)).as("a new optional field is compatible").isEmpty();
    }
}
