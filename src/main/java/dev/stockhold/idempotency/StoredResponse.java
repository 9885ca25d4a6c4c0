package dev.stockhold.idempotency;

import java.util.UUID;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.web.ProblemType;

/** The outcome of an executed request as first given: what every replay of its key answers. */
public record StoredResponse(int status, String body, String location, UUID reservationId, String etag) {

    public StoredResponse(int status, String body, String location, UUID reservationId) {
        this(status, body, location, reservationId, null);
    }

    /** Header on a replayed answer (draft-ietf-httpapi-idempotency-key-header, Stripe). */
    public static final String REPLAYED_HEADER = dev.stockhold.web.Headers.IDEMPOTENT_REPLAYED;

    /** A 200 whose body is {@code view} as the REST layer's mapper writes it (stored, and replayed byte for byte). */
    public static StoredResponse ok(ObjectMapper mapper, Object view, UUID reservationId, String etag) {
        try {
            return new StoredResponse(200, mapper.writeValueAsString(view), null, reservationId, etag);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An answer that cannot be written as JSON: " + view.getClass().getSimpleName(), e);
        }
    }

    public boolean isProblem() {
        return status >= 400;
    }

    /** This outcome as the HTTP answer: status, body, Location, and Idempotent-Replayed when it is a replay. */
    public Response answer(boolean replayed) {
        Response.ResponseBuilder builder = Response.status(status)
                .type(isProblem() ? ProblemType.MEDIA_TYPE : MediaType.APPLICATION_JSON)
                .entity(body);
        if (location != null) {
            builder.header(HttpHeaders.LOCATION, location);
        }
        if (etag != null) {
            builder.header(HttpHeaders.ETAG, etag);
        }
        if (replayed) {
            builder.header(REPLAYED_HEADER, "true");
        }
        return builder.build();
    }
}
