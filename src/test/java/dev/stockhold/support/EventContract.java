package dev.stockhold.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import dev.stockhold.events.EventType;

/**
 * What a consumer holds Stockhold to: every event on the wire is a CloudEvent whose data validates against the JSON
 * Schema (2020-12) of its type, served at /schemas/events/{type}.json, with the attributes docs/events.md promises
 * (dataschema naming that schema, a 19-digit sequence, a partitionkey). Validated with networknt's json-schema-validator.
 */
public final class EventContract {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Map<String, Schema> BY_TYPE = new ConcurrentHashMap<>();

    private EventContract() {
    }

    /** The schema document of one event type, as the service serves it. */
    public static String schemaText(EventType type) {
        try (InputStream in = EventContract.class.getClassLoader().getResourceAsStream("schemas/events/" + type.type() + ".json")) {
            if (in == null) {
                throw new AssertionError("no schema for " + type.type() + " in schemas/events");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema's violations by this data (empty when it conforms). */
    public static List<Error> violations(EventType type, String dataJson) {
        return BY_TYPE.computeIfAbsent(type.type(), t -> SCHEMAS.getSchema(schemaText(type))).validate(dataJson, InputFormat.JSON);
    }

    /** Fails unless the CloudEvent conforms: its attributes and its data, by its type's schema. */
    public static void assertConforms(JsonNode event) {
        String type = event.path("type").asText();
        EventType eventType = EventType.ofType(type).orElseThrow(() -> new AssertionError("unknown event type in " + event));
        if (!event.path("dataschema").asText().endsWith("/schemas/events/" + type + ".json")) {
            throw new AssertionError("dataschema does not name the schema of " + type + ": " + event);
        }
        if (!event.path("sequence").asText().matches("[0-9]{19}") || Long.parseLong(event.path("sequence").asText()) < 1) {
            throw new AssertionError("sequence is not a 19-digit number from 1: " + event);
        }
        if (event.path("partitionkey").asText().isEmpty()) {
            throw new AssertionError("no partitionkey: " + event);
        }
        List<Error> errors = violations(eventType, event.path("data").toString());
        if (!errors.isEmpty()) {
            throw new AssertionError(type + " data does not match its schema: " + errors + " in " + event);
        }
    }

    public static void assertConforms(String eventJson) {
        try {
            assertConforms(JSON.readTree(eventJson));
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + eventJson, e);
        }
    }

    /** The event's sequence as a number. */
    public static long sequence(JsonNode event) {
        return event.path("sequence").asLong(0);
    }
}
