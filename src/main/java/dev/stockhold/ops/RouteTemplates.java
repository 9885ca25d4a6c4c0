package dev.stockhold.ops;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.ws.rs.Path;

/**
 * The API's route templates ({@code /v1/items/{sku}}), read from the JAX-RS resources, and the template a request path
 * falls under. The HTTP server metrics tag every answer by one of these or by one fixed tag ({@link #UNMATCHED}), never by
 * a path a client chose: an answer given before JAX-RS (a 429, a 503, a 408, a refused path) would otherwise carry its raw
 * path, and a client sending many would fill Micrometer's cap on {@code uri} values, after which the API's own requests
 * are no longer recorded.
 */
public final class RouteTemplates {

    /** Requests that match no route of the API. */
    public static final String UNMATCHED = "UNMATCHED";
    /** Tags Quarkus gives without a template (404s, redirections, the root, CORS preflights), kept as they are. */
    static final Set<String> FIXED = Set.of("NOT_FOUND", "REDIRECTION", "root", "UNKNOWN", "/cors-preflight", UNMATCHED,
            "/q/openapi");

    /** Template, and the pattern of the paths under it; literal templates first. */
    private final Map<String, Pattern> templates;

    RouteTemplates(List<String> templates) {
        Map<String, Pattern> ordered = new LinkedHashMap<>();
        templates.stream().distinct().sorted(Comparator.comparingLong((String t) -> t.chars().filter(c -> c == '{').count())
                .thenComparing(Comparator.naturalOrder()))
                .forEach(template -> ordered.put(template, Pattern.compile(Pattern.quote(template).replaceAll(
                        "\\{[^}]+\\}", "\\\\E[^/]+\\\\Q") + "/?")));
        this.templates = ordered;
    }

    /** The templates of every JAX-RS resource among these beans. */
    static RouteTemplates of(BeanManager beans) {
        List<String> found = new ArrayList<>();
        for (Bean<?> bean : beans.getBeans(Object.class, jakarta.enterprise.inject.Any.Literal.INSTANCE)) {
            found.addAll(templatesOf(bean.getBeanClass()));
        }
        return new RouteTemplates(found);
    }

    static List<String> templatesOf(Class<?> resource) {
        Path root = resource.getAnnotation(Path.class);
        if (root == null) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        for (Method method : resource.getDeclaredMethods()) {
            Path sub = method.getAnnotation(Path.class);
            found.add(join(root.value(), sub == null ? "" : sub.value()));
        }
        return found;
    }

    private static String join(String root, String sub) {
        String path = ("/" + root + "/" + sub).replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** The tag for this {@code uri} value: itself when it is a template or a fixed tag, the template it falls under, or UNMATCHED. */
    public String tag(String uri) {
        if (uri == null || FIXED.contains(uri) || templates.containsKey(uri)) {
            return uri == null ? UNMATCHED : uri;
        }
        return templateOf(uri).orElse(UNMATCHED);
    }

    Optional<String> templateOf(String path) {
        return templates.entrySet().stream().filter(e -> e.getValue().matcher(path).matches()).map(Map.Entry::getKey).findFirst();
    }

    Set<String> templates() {
        return templates.keySet();
    }
}
