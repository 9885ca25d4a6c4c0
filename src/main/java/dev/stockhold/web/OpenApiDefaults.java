package dev.stockhold.web;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.ws.rs.core.HttpHeaders;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * Makes /q/openapi true for a generated client: besides the statuses each operation documents, any operation can
 * answer a problem it does not list (406 for an Accept it cannot meet, 413, 415, 429 at the tenant's limit, 503 when
 * the database is away), so every operation gets a {@code default} response of {@code application/problem+json}.
 * And every pattern is anchored.
 */
public class OpenApiDefaults implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        listSlugs(openAPI);
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (PathItem item : openAPI.getPaths().getPathItems().values()) {
            Map<PathItem.HttpMethod, Operation> operations = item.getOperations();
            if (operations == null) {
                continue;
            }
            operations.values().forEach(OpenApiDefaults::problemContent);
            operations.values().forEach(OpenApiDefaults::addDefault);
            operations.values().forEach(OpenApiDefaults::addSecured);
            operations.values().forEach(OpenApiDefaults::addBodied);
            operations.values().forEach(OpenApiDefaults::addKeyed);
        }
    }

    /** The Problem schema names every slug the service answers: each of ProblemType, none typed twice by hand. */
    private static void listSlugs(OpenAPI openAPI) {
        Schema problem = openAPI.getComponents() == null || openAPI.getComponents().getSchemas() == null ? null
                : openAPI.getComponents().getSchemas().get("Problem");
        if (problem != null) {
            problem.setDescription("RFC 9457 problem details. `type` ends in one of the slugs: "
                    + Arrays.stream(ProblemType.values()).map(ProblemType::slug).collect(Collectors.joining(", "))
                    + ".");
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
     * A response an operation declares by naming its problem slugs first ({@code "reservation-not-found"},
     * {@code "validation-failed: ..."}) is a problem: its content is written here once instead of on every
     * {@code @APIResponse}. Generated stand-ins ("Not Authorized") name no slug and stay for the rules below.
     */
    private static void problemContent(Operation operation) {
        if (operation.getResponses() == null || operation.getResponses().getAPIResponses() == null) {
            return;
        }
        operation.getResponses().getAPIResponses().values().forEach(response -> {
            String description = response.getDescription();
            if (response.getContent() == null && description != null
                    && ProblemType.ofSlug(description.split("[ :,]", 2)[0]).isPresent()) {
                response.content(problemJson());
            }
        });
    }

    /**
     * What every operation behind a token can answer before it runs, written once here instead of on each resource: no
     * or a bad token (401), a token without the operation's role (403), the tenant at its concurrency limit (429); and
     * since every such operation reads or writes the database, the database away or busy (503 with Retry-After).
     */
    private static void addSecured(Operation operation) {
        if (operation.getResponses() == null || operation.getSecurity() == null || operation.getSecurity().isEmpty()) {
            return;
        }
        addProblem(operation, "401", "unauthorized: no, invalid or expired token, or no tenant_id");
        addProblem(operation, "403", "forbidden: the token lacks the operation's role");
        addProblem(operation, "429", "too-many-requests: the tenant is at its concurrency limit (Retry-After)");
        addProblem(operation, "503", "service-unavailable: database unavailable or busy; retry after Retry-After");
        addHeader(operation.getResponses().getAPIResponse("503"), HttpHeaders.RETRY_AFTER, "seconds to wait before a retry",
                SchemaType.INTEGER);
    }

    /**
     * What every operation that takes a body can answer before it runs, written once here: a body over
     * {@code quarkus.http.limits.max-body-size} (413, {@code RequestBodies}) and a body sent with a Content-Type other
     * than JSON (415; an optional body too).
     */
    private static void addBodied(Operation operation) {
        if (operation.getResponses() == null || operation.getRequestBody() == null) {
            return;
        }
        addProblem(operation, "413", "payload-too-large");
        addProblem(operation, "415", "unsupported-media-type");
    }

    /**
     * What every operation that takes an Idempotency-Key can answer, unless it says more: a body it cannot read or a
     * missing or malformed key (400), the key's first request still running (409 with Retry-After), a key another
     * request used (422); and on each outcome it stores (2xx, 409, 412, and a 422 the operation declares itself) the replay header.
     */
    private static void addKeyed(Operation operation) {
        if (operation.getResponses() == null || operation.getParameters() == null) {
            return;
        }
        boolean keyed = operation.getParameters().stream()
                .anyMatch(p -> p.getIn() == Parameter.In.HEADER && Headers.IDEMPOTENCY_KEY.equalsIgnoreCase(p.getName()));
        if (!keyed) {
            return;
        }
        boolean storesUnprocessable = operation.getResponses().hasAPIResponse("422");
        addProblem(operation, "400", "malformed-request, validation-failed, idempotency-key-missing, idempotency-key-invalid");
        APIResponse declared = operation.getResponses().getAPIResponse("400");
        if (declared.getDescription() != null && !declared.getDescription().contains("idempotency-key-missing")) {
            // an operation (or its class) that documents its own 400 answers the key's problems too
            declared.setDescription(declared.getDescription() + "; idempotency-key-missing, idempotency-key-invalid: no or a malformed "
                    + "Idempotency-Key");
        }
        addProblem(operation, "409", "idempotency-request-in-progress: a request with this key is still running (Retry-After)");
        addProblem(operation, "422", "idempotency-key-reused: the key belongs to another request");
        operation.getResponses().getAPIResponses().forEach((status, response) -> {
            if (status.startsWith("2") || status.equals("409") || status.equals("412") || (status.equals("422") && storesUnprocessable)) {
                addHeader(response, Headers.IDEMPOTENT_REPLAYED,
                        "true when this is the stored outcome of an earlier request with this key",
                        SchemaType.BOOLEAN);
            }
            if (status.equals("409")) {
                addHeader(response, HttpHeaders.RETRY_AFTER, "idempotency-request-in-progress only", SchemaType.INTEGER);
            }
        });
    }

    private static void addHeader(APIResponse response, String name, String description, SchemaType type) {
        if (response.getHeaders() == null || !response.getHeaders().containsKey(name)) {
            response.addHeader(name, OASFactory.createHeader().description(description).schema(OASFactory.createSchema().addType(type)));
        }
    }

    /** Adds the problem unless the operation documents the status itself (a generated stand-in without content does not). */
    private static void addProblem(Operation operation, String status, String description) {
        APIResponse declared = operation.getResponses().getAPIResponse(status);
        if (declared == null || declared.getContent() == null) {
            operation.getResponses().addAPIResponse(status, OASFactory.createAPIResponse().description(description).content(problemJson()));
        }
    }

    private static Content problemJson() {
        return OASFactory.createContent().addMediaType(ProblemType.MEDIA_TYPE,
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref("#/components/schemas/Problem")));
    }

    private static void addDefault(Operation operation) {
        if (operation.getResponses() != null) {
            addProblem(operation, "default", "Any other problem: 406 not-acceptable, 413 payload-too-large, 415 "
                    + "unsupported-media-type, 429 too-many-requests (Retry-After), 503 service-unavailable (Retry-After), 500 "
                    + "internal-error");
        }
    }
}
