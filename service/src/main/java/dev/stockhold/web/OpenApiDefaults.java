package dev.stockhold.web;

import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

import dev.stockhold.idempotency.IdempotencyKey;

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
            operations.values().forEach(OpenApiDefaults::addSecured);
            operations.values().forEach(OpenApiDefaults::addBodied);
            operations.values().forEach(OpenApiDefaults::addKeyed);
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

    /**
     * What every operation behind a token can answer before it runs, written once here instead of on each resource: no
     * or a bad token (401), a token without the operation's role (403), the tenant at its concurrency limit (429).
     */
    private static void addSecured(Operation operation) {
        if (operation.getResponses() == null || operation.getSecurity() == null || operation.getSecurity().isEmpty()) {
            return;
        }
        addProblem(operation, "401", "unauthorized: no, invalid or expired token, or no tenant_id");
        addProblem(operation, "403", "forbidden: the token lacks the operation's role");
        addProblem(operation, "429", "too-many-requests: the tenant is at its concurrency limit (Retry-After)");
    }

    /**
     * What every operation that takes a body can answer before it runs, written once here: a body over
     * {@code quarkus.http.limits.max-body-size} (413, {@code RequestBodies}) and, where the body is required and typed,
     * a Content-Type other than JSON (415).
     */
    private static void addBodied(Operation operation) {
        if (operation.getResponses() == null || operation.getRequestBody() == null) {
            return;
        }
        addProblem(operation, "413", "payload-too-large");
        if (Boolean.TRUE.equals(operation.getRequestBody().getRequired())) {
            addProblem(operation, "415", "unsupported-media-type");
        }
    }

    /** An operation that takes an Idempotency-Key refuses a key another request used (422) unless it says more. */
    private static void addKeyed(Operation operation) {
        if (operation.getResponses() == null || operation.getParameters() == null) {
            return;
        }
        boolean keyed = operation.getParameters().stream()
                .anyMatch(p -> p.getIn() == Parameter.In.HEADER && IdempotencyKey.HEADER.equalsIgnoreCase(p.getName()));
        if (keyed) {
            addProblem(operation, "422", "idempotency-key-reused: the key belongs to another request");
        }
    }

    private static void addProblem(Operation operation, String status, String description) {
        if (!operation.getResponses().hasAPIResponse(status)) {
            operation.getResponses().addAPIResponse(status, OASFactory.createAPIResponse().description(description)
                    .content(OASFactory.createContent().addMediaType(ProblemType.MEDIA_TYPE, OASFactory.createMediaType()
                            .schema(OASFactory.createSchema().ref("#/components/schemas/Problem")))));
        }
    }

    private static void addDefault(Operation operation) {
        if (operation.getResponses() != null) {
            addProblem(operation, "default", "Any other problem: 406 not-acceptable, 413 payload-too-large, 415 "
                    + "unsupported-media-type, 429 too-many-requests (Retry-After), 503 service-unavailable (Retry-After), 500 "
                    + "internal-error");
        }
    }
}
