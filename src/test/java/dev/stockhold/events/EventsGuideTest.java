package dev.stockhold.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.outbox.KafkaPublisher;
import dev.stockhold.support.EventContract;
import dev.stockhold.support.Repository;

/** docs/events.md cannot drift from the schemas: each event type's section, routes and field table are checked. */
class EventsGuideTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldDescribeEveryEventTypeAsItsSchemaAndRoutesDo() throws IOException {
        List<String> guide = Files.readAllLines(Repository.path("docs/events.md"));
        for (EventType type : EventType.values()) {
            int at = guide.indexOf("### " + type.shortName());
            assertThat(at).as("docs/events.md has a section ### %s", type.shortName()).isNotNegative();
            List<String> section = section(guide, at);
            assertThat(section).as("%s: its routes", type.shortName()).contains("Type `" + type.type() + "`; RabbitMQ routing key `"
                    + type.routingKey() + "`; Kafka topic `" + KafkaPublisher.topicOf(type) + "`; schema `/schemas/events/" + type.type()
                    + ".json`.");
            assertThat(section.stream().filter(l -> l.startsWith("| `")).toList()).as("%s: its field table", type.shortName())
                    .isEqualTo(rows(JSON.readTree(EventContract.schemaText(type))));
        }
    }

    private static List<String> section(List<String> guide, int at) {
        int end = at + 1;
        while (end < guide.size() && !guide.get(end).startsWith("#")) {
            end++;
        }
        return guide.subList(at, end);
    }

    /** The table rows the schema implies: field, type (with its format or enum), required. */
    private static List<String> rows(JsonNode schema) {
        List<String> rows = new ArrayList<>();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(n -> required.add(n.asText()));
        for (Map.Entry<String, JsonNode> p : (Iterable<Map.Entry<String, JsonNode>>) schema.path("properties")::fields) {
            rows.add("| `" + p.getKey() + "` | " + type(p.getValue()) + " | " + (required.contains(p.getKey()) ? "yes" : "no") + " |");
        }
        return rows;
    }

    private static String type(JsonNode property) {
        String type = property.path("type").asText();
        if (type.equals("array")) {
            return "array of " + property.path("items").path("type").asText();
        }
        if (property.has("format")) {
            return type + " (" + property.path("format").asText() + ")";
        }
        if (property.has("enum")) {
            List<String> values = new ArrayList<>();
            property.path("enum").forEach(v -> values.add("`" + v.asText() + "`"));
            return type + ": " + String.join(", ", values);
        }
        return type;
    }
}
