package dev.stockhold.support;

import jakarta.ws.rs.container.ContainerRequestContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.vertx.ext.web.RoutingContext;

/**
 * Test code only: with header {@code X-Test-Fault: drop-response-after-commit}, the connection is reset after the
 * resource method returned (its transaction committed) and before a byte of the response is written, as when the
 * process dies or the network drops at that instant.
 */
public class FaultInjection {

    public static final String HEADER = "X-Test-Fault";
    public static final String DROP_RESPONSE_AFTER_COMMIT = "drop-response-after-commit";

    @ServerResponseFilter
    public void dropResponse(ContainerRequestContext request, RoutingContext routing) {
        if (DROP_RESPONSE_AFTER_COMMIT.equals(request.getHeaderString(HEADER))) {
            routing.request().connection().close();
        }
    }
}
