package dev.stockhold.outbox;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.events.EventType;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;
import io.quarkus.runtime.StartupEvent;

/**
 * The event contract, public like the problem pages: the JSON Schema of each event type and version (what every
 * CloudEvent's {@code dataschema} names) and the AsyncAPI document of the topics, keys and messages. Both are kept in the
 * repository (schemas/events, asyncapi) and served as they are.
 */
@Path("/")
@PermitAll
@Tag(name = "events")
public class EventContractResource {

    static final String SCHEMA_MEDIA_TYPE = "application/schema+json";
    static final String YAML_MEDIA_TYPE = "application/yaml";
    private static final Map<String, String> RESOURCES = new ConcurrentHashMap<>();

    @GET
    @Path("schemas/events/{type}.json")
    @Produces(SCHEMA_MEDIA_TYPE)
    @Operation(summary = "The JSON Schema (2020-12) of one event type's data",
            description = "By CloudEvents type (dev.stockhold.reservation.created.v1) or short name (reservation.created.v1).")
    @APIResponse(responseCode = "200", description = "The schema document",
            content = @Content(mediaType = SCHEMA_MEDIA_TYPE, schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "404", description = "not-found: no event type has this name")
    public String schema(@PathParam("type") String type) {
        EventType eventType = EventType.ofType(type)
                .orElseThrow(() -> new ProblemException(ProblemType.NOT_FOUND, "No event type '" + type + "'"));
        return resource("schemas/events/" + eventType.type() + ".json");
    }

    @GET
    @Path("asyncapi.yaml")
    @Produces(YAML_MEDIA_TYPE)
    @Operation(summary = "The AsyncAPI 3.0 document of Stockhold's events")
    @APIResponse(responseCode = "200", description = "The AsyncAPI document",
            content = @Content(mediaType = YAML_MEDIA_TYPE, schema = @Schema(type = SchemaType.STRING)))
    public String asyncApi() {
        return resource("asyncapi/asyncapi.yaml");
    }

    /**
     * Every event type has its schema in the build and a route on each broker: a type added without them stops the
     * start instead of publishing events nobody can validate or find.
     */
    void checkEveryTypeIsPublishable(@Observes StartupEvent event) {
        for (EventType type : EventType.values()) {
            resource("schemas/events/" + type.type() + ".json");
        }
        KafkaPublisher.routes(KafkaPublisher.TOPICS);
    }

    static String resource(String name) {
        return RESOURCES.computeIfAbsent(name, EventContractResource::read);
    }

    private static String read(String name) {
        try (InputStream in = EventContractResource.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
