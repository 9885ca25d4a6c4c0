package dev.stockhold.web;

import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.HttpHeaders;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Bodies over {@code quarkus.http.limits.max-body-size} are refused by the HTTP layer before JAX-RS runs; this
 * makes that refusal a problem+json 413 like every other error instead of an empty body.
 */
public class BodyLimitProblems {

    private final ProblemResponses responses;
    private final long limit;

    BodyLimitProblems(ProblemResponses responses,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.responses = responses;
        this.limit = limit.asLongValue();
    }

    void register(@Observes Router router) {
        // Runs before Quarkus' own limit check (order -2), which would answer 413 with no body.
        router.route().order(-3).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && exceeds(length)) {
                refuse(ctx);
            } else {
                ctx.next();
            }
        });
        // A chunked body that grows past the limit fails the route with 413 while it is read.
        router.route().order(-3).failureHandler(ctx -> {
            if (ctx.statusCode() == 413 && !ctx.response().headWritten()) {
                refuse(ctx);
            } else {
                ctx.next();
            }
        });
    }

    private boolean exceeds(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void refuse(RoutingContext ctx) {
        ctx.response()
                .setStatusCode(413)
                .putHeader(HttpHeaders.CONTENT_TYPE, ProblemType.MEDIA_TYPE)
                .putHeader("Connection", "close")
                .end(responses.json(Problem.of(ProblemType.PAYLOAD_TOO_LARGE,
                        "Request body exceeds the limit of " + limit + " bytes")));
    }
}
