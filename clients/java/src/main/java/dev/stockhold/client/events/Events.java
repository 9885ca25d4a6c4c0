package dev.stockhold.client.events;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.client.StockholdClient;

/**
 * Reads a Stockhold event as delivered: the structured CloudEvent that is a RabbitMQ message's body and a Kafka
 * record's value (both brokers carry the same bytes).
 */
public final class Events {

    private static final ObjectMapper JSON = StockholdClient.json();

    private Events() {
    }

    public static CloudEvent<Object> parse(byte[] body) {
        return parse(new String(body, StandardCharsets.UTF_8));
    }

    /** The event with its data as the type's record ({@link EventTypes}), or as a JsonNode for a type this client does not know. */
    public static CloudEvent<Object> parse(String body) {
        try {
            JsonNode event = JSON.readTree(body);
            String type = text(event, "type");
            Optional<Class<? extends Record>> record = EventTypes.dataOf(type);
            Object data = record.isPresent() ? JSON.treeToValue(event.path("data"), record.get()) : event.path("data");
            return new CloudEvent<>(UUID.fromString(text(event, "id")), type, event.path("subject").asText(null),
                    event.hasNonNull("time") ? Instant.parse(text(event, "time")) : null, event.path("tenantid").asText(null),
                    event.hasNonNull("sequence") ? Long.parseLong(text(event, "sequence")) : 0, event.path("partitionkey").asText(null), data);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a Stockhold CloudEvent: " + e.getMessage(), e);
        }
    }

    /** The event, whose data must be a {@code type}: for a consumer bound to one routing key or type. */
    public static <T> CloudEvent<T> parse(String body, Class<T> type) {
        CloudEvent<Object> event = parse(body);
        if (!type.isInstance(event.data())) {
            throw new IllegalArgumentException("event " + event.id() + " is a " + event.type() + ", not a " + type.getSimpleName());
        }
        return new CloudEvent<>(event.id(), event.type(), event.subject(), event.time(), event.tenant(), event.sequence(), event.partitionKey(),
                type.cast(event.data()));
    }

    private static String text(JsonNode event, String field) {
        JsonNode value = event.get(field);
        if (value == null || !value.isTextual()) {
            throw new UncheckedIOException(new IOException("attribute " + field + " missing"));
        }
        return value.asText();
    }
}
