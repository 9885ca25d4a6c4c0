package dev.stockhold.web;

import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * Makes /q/openapi true for a generated client: besides the statuses each operation documents, any operation can
 * answer a problem it does not list (406 for an Accept it cannot meet, 413, 415, 429 at the tenant's limit, 503 when
 * the database is away), so every operation gets a {@code default} response of {@code application/problem+json}.
 * And every pattern is anchored.
 */
public class OpenApiDefaults implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (PathItem item : openAPI.getPaths().getPathItems().values()) {
            Map<PathItem.HttpMethod, Operation> operations = item.getOperations();
            if (operations == null) {
                continue;
            }
            operations.values().forEach(OpenApiDefaults::addDefault);
        }
    }

    /**
     * A JSON Schema pattern matches anywhere in the value; the service checks whole values. Patterns generated for
     * types (UUIDs) come unanchored, so every pattern is anchored here to say what is enforced.
     */
    @Override
    public Schema filterSchema(Schema schema) {
        String pattern = schema.getPattern();
        if (pattern != null && !(pattern.startsWith("^") && pattern.endsWith("$"))) {
            schema.setPattern("^(?:" + pattern + ")$");
        }
        return schema;
    }

    private static void addDefault(Operation operation) {
        if (operation.getResponses() == null || operation.getResponses().hasAPIResponse("default")) {
            return;
        }
        operation.getResponses().addAPIResponse("default", OASFactory.createAPIResponse()
                .description("Any other problem: 406 not-acceptable, 413 payload-too-large, 415 unsupported-media-type, "
                        + "429 too-many-requests (Retry-After), 503 service-unavailable (Retry-After), 500 internal-error")
                .content(OASFactory.createContent().addMediaType(ProblemType.MEDIA_TYPE, OASFactory.createMediaType()
                        .schema(OASFactory.createSchema().ref("#/components/schemas/Problem")))));
    }
}
