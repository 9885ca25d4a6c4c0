package dev.stockhold.web;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code stockhold_problems_total{slug,status}}: every problem+json answer by its slug, fresh or replayed from an
 * idempotency key, so the dashboard shows errors by kind and not only by status. Every slug's series exists from the
 * start (at 0), so a rate over it is defined before the first error.
 */
@ApplicationScoped
public class ProblemMetrics {

    static final String NAME = "stockhold.problems";
    /** The slug is the last segment of the problem's type URI, whatever stockhold.problems.base-uri is. */
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"[^\"]*/([a-z-]+)\"");

    private final MeterRegistry registry;

    ProblemMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (ProblemType type : ProblemType.values()) {
            counter(type);
        }
    }

    @ServerResponseFilter
    public void count(ContainerResponseContext response) {
        if (response.getStatus() < 400 || response.getMediaType() == null
                || !ProblemType.MEDIA_TYPE.equals(response.getMediaType().getType() + "/" + response.getMediaType().getSubtype())) {
            return;
        }
        slugOf(response.getEntity()).ifPresent(this::count);
    }

    /** For problems answered outside JAX-RS, on the event loop ({@link ProblemResponses#end}). */
    void count(ProblemType type) {
        counter(type).increment();
    }

    private io.micrometer.core.instrument.Counter counter(ProblemType type) {
        return registry.counter(NAME, "slug", type.slug(), "status", Integer.toString(type.status()));
    }

    private static Optional<ProblemType> slugOf(Object entity) {
        if (entity instanceof Problem problem) {
            return slug(problem.type());
        }
        if (entity instanceof String json) {
            Matcher m = TYPE.matcher(json);
            return m.find() ? ProblemType.ofSlug(m.group(1)) : Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<ProblemType> slug(String typeUri) {
        return ProblemType.ofSlug(typeUri.substring(typeUri.lastIndexOf('/') + 1));
    }
}
