package dev.stockhold.security;

import java.util.Optional;

import io.vertx.ext.web.RoutingContext;

/**
 * A limit a feature puts on its own requests, asked by Admission after the token and the tenant's limit (the
 * reservation path's adaptive limit is one). A gate that does not cover a request admits it with a place that does
 * nothing.
 */
public interface AdmissionGate {

    /** A place for this request, or empty when the gate is full (answered 503 with {@link #refusal()}). */
    Optional<Place> tryAdmit(RoutingContext request);

    /** The detail of the 503 for a request this gate could not admit. */
    String refusal();

    /** An admitted request's place; released once, with the response status (negative when it failed). */
    @FunctionalInterface
    interface Place {
        Place NONE = status -> {
        };

        void release(int status);
    }
}
