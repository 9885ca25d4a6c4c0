package dev.stockhold.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.stockhold.outbox.KafkaPublisher;
import dev.stockhold.support.EventContract;
import dev.stockhold.support.NpmTools;
import dev.stockhold.support.Repository;

/**
 * docs/asyncapi.yaml (served at /asyncapi.yaml) is the events' contract: one message per event type whose payload is
 * the CloudEvent with that type's JSON Schema as data, unchanged; a RabbitMQ channel per routing key; the Kafka topic of
 * each aggregate type with its messages; and it passes the AsyncAPI parser (npm's @asyncapi/parser).
 */
class AsyncApiDocumentTest {

    private static final Path DOC = Repository.path("docs/asyncapi.yaml");
    private static final String PARSER_VERSION = "3.6.3";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void shouldCarryEveryEventTypesSchemaUnchanged() throws IOException {
        JsonNode doc = YAML.readTree(DOC.toFile());
        assertThat(doc.path("asyncapi").asText()).isEqualTo("3.0.0");
        Map<String, JsonNode> messagesByType = new HashMap<>();
        doc.path("components").path("messages").forEach(m -> messagesByType.put(m.path("name").asText(), m));
        assertThat(messagesByType.keySet()).containsExactlyInAnyOrderElementsOf(
                java.util.Arrays.stream(EventType.values()).map(EventType::type).toList());
        for (EventType type : EventType.values()) {
            JsonNode message = messagesByType.get(type.type());
            String dataRef = message.path("payload").path("allOf").get(1).path("properties").path("data").path("$ref").asText();
            JsonNode inDoc = resolve(doc, dataRef);
            ObjectNode kept = (ObjectNode) JSON.readTree(EventContract.schemaText(type));
            kept.remove(List.of("$schema", "$id"));
            assertThat(inDoc).as("%s: the payload's data is its JSON Schema", type.type()).isEqualTo(kept);
            assertThat(message.path("payload").path("allOf").get(1).path("properties").path("type").path("enum").get(0).asText())
                    .isEqualTo(type.type());
        }
    }

    @Test
    void shouldRouteAsThePublishersDo() throws IOException {
        JsonNode doc = YAML.readTree(DOC.toFile());
        Set<String> rabbitKeys = new TreeSet<>();
        Map<String, Set<String>> kafkaMessages = new HashMap<>();
        doc.path("channels").forEach(channel -> {
            String server = channel.path("servers").get(0).path("$ref").asText();
            if (server.endsWith("/rabbitmq") && channel.path("bindings").path("amqp").path("is").asText().equals("routingKey")) {
                rabbitKeys.add(channel.path("address").asText());
                assertThat(channel.path("bindings").path("amqp").path("exchange").path("name").asText()).isEqualTo("stockhold.events");
            } else if (server.endsWith("/kafka")) {
                Set<String> names = new TreeSet<>();
                channel.path("messages").forEach(m -> names.add(resolve(doc, m.path("$ref").asText()).path("name").asText()));
                kafkaMessages.put(channel.path("address").asText(), names);
            }
        });
        Set<String> routingKeys = new TreeSet<>();
        Map<String, Set<String>> byTopic = new HashMap<>();
        for (EventType type : EventType.values()) {
            routingKeys.add(type.routingKey());
            byTopic.computeIfAbsent(KafkaPublisher.topicOf(type), t -> new TreeSet<>()).add(type.type());
        }
        assertThat(rabbitKeys).isEqualTo(routingKeys);
        assertThat(kafkaMessages).isEqualTo(byTopic);
        assertThat(doc.toString()).contains("stockhold.unrouted");
    }

    @Test
    void shouldPassTheAsyncApiParser() throws Exception {
        NpmTools.install("asyncapi", "@asyncapi/parser@" + PARSER_VERSION,
                Path.of("target", "asyncapi", "node_modules", "@asyncapi", "parser"));
        Path script = Path.of("target", "asyncapi", "validate.mjs");
        Files.copy(Path.of("src/test/resources/asyncapi-validate.mjs"), script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Process validate = new ProcessBuilder("node", script.toString(), DOC.toString()).redirectErrorStream(true).start();
        String output = new String(validate.getInputStream().readAllBytes());
        assertThat(validate.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(validate.exitValue()).as("the AsyncAPI parser's verdict:%n%s", output).isZero();
        assertThat(output).contains("parsed: " + EventType.values().length + " messages");
    }

    private static JsonNode resolve(JsonNode doc, String ref) {
        assertThat(ref).startsWith("#/");
        return doc.at(ref.substring(1));
    }
}
