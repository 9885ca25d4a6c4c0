package dev.stockhold.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Renders problems as {@code application/problem+json}, the same bytes whether fresh or replayed. */
@ApplicationScoped
public class ProblemResponses {

    private final ObjectMapper mapper;

    ProblemResponses(ObjectMapper mapper) {
        this.mapper = mapper;
    }

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
}
