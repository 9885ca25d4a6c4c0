package dev.stockhold.support;

import jakarta.ws.rs.container.ContainerRequestContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Test code only: with header {@code X-Test-Fault: hold-response-after-commit}, the response is held back after the
 * resource method returned (its transaction committed) for longer than the test client waits, so the client gives
 * up without a byte of the response, as when the process dies or the network drops at that instant.
 */
public class FaultInjection {

    public static final String HEADER = "X-Test-Fault";
    public static final String HOLD_RESPONSE_AFTER_COMMIT = "hold-response-after-commit";
    public static final int HOLD_MILLIS = 3_000;

    @ServerResponseFilter
    public void holdResponse(ContainerRequestContext request) throws InterruptedException {
        if (HOLD_RESPONSE_AFTER_COMMIT.equals(request.getHeaderString(HEADER))) {
            Thread.sleep(HOLD_MILLIS);
        }
    }
}
