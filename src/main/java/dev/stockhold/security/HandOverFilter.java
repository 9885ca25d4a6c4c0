package dev.stockhold.security;

import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.ext.web.RoutingContext;

/** The JAX-RS side of {@link HandOver}: every answer of an admitted request passes here before it is written. */
public class HandOverFilter {

    private final CurrentVertxRequest request;

    HandOverFilter(CurrentVertxRequest request) {
        this.request = request;
    }

    @ServerResponseFilter
    public void handOver(ContainerResponseContext response) {
        RoutingContext ctx = request.getCurrent();
        HandOver handOver = ctx == null ? null : ctx.get(HandOver.KEY);
        if (handOver != null) {
            handOver.run(response.getStatus());
        }
    }
}
