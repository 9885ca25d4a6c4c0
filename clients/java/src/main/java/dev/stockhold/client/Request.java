package dev.stockhold.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One call to make: the operation, its path and query values, its body, and the Idempotency-Key and If-Match it is
 * sent with on every attempt. Built by the resource classes; the key of a keyed operation is made here when the caller
 * gave none.
 */
record Request(Operation operation, List<String> pathValues, Map<String, List<String>> query, Object body, String idempotencyKey,
        String ifMatch) {

    static Request of(Operation operation, String... pathValues) {
        return new Request(operation, List.of(pathValues), Map.of(), null,
                operation.retry() == Operation.Retry.KEYED ? Keys.random() : null, null);
    }

    Request body(Object value) {
        return new Request(operation, pathValues, query, value, idempotencyKey, ifMatch);
    }

    /** The caller's key, or the one made for this call when the caller gave null. */
    Request key(String value) {
        return value == null ? this : new Request(operation, pathValues, query, body, Keys.check(value), ifMatch);
    }

    Request ifMatch(String version) {
        return new Request(operation, pathValues, query, body, idempotencyKey, version);
    }

    /** A copy with one more query parameter; a null value is left out. */
    Request query(String name, Object value) {
        if (value == null) {
            return this;
        }
        Map<String, List<String>> more = new LinkedHashMap<>();
        query.forEach((n, values) -> more.put(n, new ArrayList<>(values)));
        more.computeIfAbsent(name, n -> new ArrayList<>()).add(value.toString());
        return new Request(operation, pathValues, more, body, idempotencyKey, ifMatch);
    }

    /** The path and query, each value percent-encoded. */
    String target() {
        StringBuilder path = new StringBuilder();
        int next = 0;
        for (String segment : operation.path().substring(1).split("/")) {
            path.append('/').append(segment.startsWith("{") ? encode(pathValues.get(next++)) : segment);
        }
        String separator = "?";
        for (Map.Entry<String, List<String>> parameter : query.entrySet()) {
            for (String value : parameter.getValue()) {
                path.append(separator).append(encode(parameter.getKey())).append('=').append(encode(value));
                separator = "&";
            }
        }
        return path.toString();
    }

    /**
     * Percent-encodes a path or query value: every character but the unreserved ones and {@code :}, which are sent as
     * they are (the service refuses a path that escapes an unreserved character, such as the {@code %7E} URLEncoder makes
     * of {@code ~}).
     */
    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A").replace("%7E", "~").replace("%3A", ":");
    }
}
