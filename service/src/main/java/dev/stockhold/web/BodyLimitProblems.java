package dev.stockhold.web;

import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.HttpHeaders;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * Request bodies at the HTTP layer, before JAX-RS runs: API bodies are buffered on the event loop so slow clients
 * never hold a worker thread, and bodies over {@code quarkus.http.limits.max-body-size} get a problem+json 413 like
 * every other error instead of an empty one.
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
        // Bodies of the API are read whole on the event loop (non-blocking) before a worker thread is taken: a client
        // that trickles its body, or never finishes it, holds no worker and is cut off by quarkus.http.read-timeout.
        // HTTP/1.x only: REST pauses every request it takes over, which an HTTP/2 stream refuses once its body was
        // read (IllegalStateException, a 500). HTTP/2 has per-stream flow control and REST reads those bodies itself.
        BodyHandler buffer = BodyHandler.create(false).setBodyLimit(limit).setHandleFileUploads(false);
        router.route("/v1/*").order(-2).handler(ctx -> {
            if (hasBody(ctx) && ctx.request().version() != HttpVersion.HTTP_2) {
                buffer.handle(ctx);
            } else {
                ctx.next(); // nothing to wait for; REST reads the empty body itself
            }
        });
        // A chunked body that grows past the limit fails the route with 413 while it is read.
        router.route().order(-3).failureHandler(ctx -> {
            if (ctx.failure() instanceof HttpClosedException) {
                return; // the client went away mid-body: nobody to answer, nothing to log as a server error
            }
            if (ctx.statusCode() == 413 && !ctx.response().headWritten()) {
                refuse(ctx);
            } else {
                ctx.next();
            }
        });
    }

    private static boolean hasBody(RoutingContext ctx) {
        String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            return !length.trim().equals("0");
        }
        return ctx.request().getHeader("Transfer-Encoding") != null;
    }

    private boolean exceeds(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void refuse(RoutingContext ctx) {
        responses.end(ctx.response().putHeader("Connection", "close"), ProblemType.PAYLOAD_TOO_LARGE,
                "Request body exceeds the limit of " + limit + " bytes");
    }
}
