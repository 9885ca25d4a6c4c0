package dev.stockhold.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.vertx.core.http.HttpServerResponse;

/** Renders problems as {@code application/problem+json}, the same bytes whether fresh or replayed. */
@ApplicationScoped
public class ProblemResponses {

    @Inject
    ObjectMapper mapper;
    @Inject
    ProblemMetrics metrics;

    public String json(Problem problem) {
        try {
            return mapper.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("problem is not serializable", e);
        }
    }

    public Response.ResponseBuilder builder(Problem problem) {
        return Response.status(problem.status()).type(ProblemType.MEDIA_TYPE).entity(json(problem));
    }

    public Response response(Problem problem) {
        return builder(problem).build();
    }

    /**
     * Answers a problem on the event loop, outside JAX-RS (whose responses {@link ProblemMetrics} counts itself), and
     * counts it; set any extra header on {@code response} first.
     */
    public io.vertx.core.Future<Void> end(HttpServerResponse response, ProblemType type, String detail) {
        return end(response, type, Problem.of(type, detail));
    }

    /** The same for a validation-failed problem naming one field (a header, the path). */
    public io.vertx.core.Future<Void> invalid(HttpServerResponse response, String field, String message) {
        return end(response, ProblemType.VALIDATION_FAILED, new ValidationFailedException(field, message).problem());
    }

    private io.vertx.core.Future<Void> end(HttpServerResponse response, ProblemType type, Problem problem) {
        metrics.count(type);
        return response.setStatusCode(type.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, ProblemType.MEDIA_TYPE)
                .end(json(problem));
    }
}
