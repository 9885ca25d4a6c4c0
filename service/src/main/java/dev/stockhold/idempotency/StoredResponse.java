package dev.stockhold.idempotency;

import java.util.UUID;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import dev.stockhold.web.ProblemType;

/** The outcome of an executed request as first given: what every replay of its key answers. */
public record StoredResponse(int status, String body, String location, UUID reservationId, String etag) {

    public StoredResponse(int status, String body, String location, UUID reservationId) {
        this(status, body, location, reservationId, null);
    }

    /** Header on a replayed answer (draft-ietf-httpapi-idempotency-key-header, Stripe). */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

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
