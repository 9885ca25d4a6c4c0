package dev.stockhold.web;

import java.util.Collections;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;

import jakarta.enterprise.event.Observes;

import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The first thing every request meets, before bodies, authentication, admission and routing: the request is framed and
 * addressed in exactly one way, so every later decision (which limit applies, which resource answers) is made on the
 * same path and the same message.
 * <ul>
 * <li>The path must be in its normal form (RFC 3986 section 6.2.2): no empty or dot segments, no matrix parameters
 * ({@code ;}), every percent-escape well formed and none of an unreserved character. A path that normalises to
 * something other than what it says ({@code //v1/reservations}, {@code /./v1/...}, {@code /%76%31/...},
 * {@code /v1/reservations;x=1}) is 400 validation-failed naming {@code path}: the router and JAX-RS each normalise in their own way, and a
 * limit judged on one spelling must not be passed by another.</li>
 * <li>HTTP/1.x: a Transfer-Encoding other than exactly {@code chunked} is 400 and closes the connection (RFC 9112
 * section 6.1; validation-failed naming the header): its body's end cannot be known, so whatever follows on the connection (a request smuggled in the body)
 * is never read as a request.</li>
 * </ul>
 */
public class RequestFraming {

    private final ProblemResponses responses;
    /** Connections whose framing is lost: a request already parsed from them is not served. */
    private final Set<HttpConnection> lost = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    RequestFraming(ProblemResponses responses) {
        this.responses = responses;
    }

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::frame);
    }

    private void frame(RoutingContext ctx) {
        HttpConnection connection = ctx.request().connection();
        if (connection != null && lost.contains(connection)) {
            connection.close();
            return;
        }
        if (ctx.request().version() != HttpVersion.HTTP_2 && !isPlainChunked(ctx.request().headers().getAll("Transfer-Encoding"))) {
            if (connection != null) {
                lost.add(connection);
            }
            responses.invalid(ctx.response().putHeader("Connection", "close"), "Transfer-Encoding",
                    "must be chunked or absent; the connection is closed")
                    .onComplete(done -> ctx.request().connection().close());
            return;
        }
        Optional<String> unnormal = unnormalised(ctx.request().path());
        if (unnormal.isPresent()) {
            responses.invalid(ctx.response(), "path", unnormal.get());
            return;
        }
        ctx.next();
    }

    /** No Transfer-Encoding, or exactly one coding, chunked. */
    static boolean isPlainChunked(java.util.List<String> values) {
        if (values.isEmpty()) {
            return true;
        }
        return values.size() == 1 && values.get(0).strip().toLowerCase(Locale.ROOT).equals("chunked");
    }

    /** Why this raw path is not in its normal form, if it is not. */
    static Optional<String> unnormalised(String path) {
        if (path == null || !path.startsWith("/")) {
            return Optional.of("must start with /");
        }
        if (path.indexOf(';') >= 0) {
            return Optional.of("has matrix parameters (;), which are not part of this API's paths");
        }
        if (path.contains("//")) {
            return Optional.of("has an empty segment (//)");
        }
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '%') {
                int value = i + 2 < path.length() ? hex(path.charAt(i + 1), path.charAt(i + 2)) : -1;
                if (value < 0) {
                    return Optional.of("has a malformed percent-escape");
                }
                if (isUnreserved((char) value)) {
                    return Optional.of("escapes a character that needs no escape (%"
                            + path.substring(i + 1, i + 3) + "); send it as it is");
                }
                i += 2;
            }
        }
        for (String segment : path.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return Optional.of("has a dot segment (. or ..)");
            }
        }
        return Optional.empty();
    }

    private static boolean isUnreserved(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                || c == '~';
    }

    private static int hex(char high, char low) {
        int h = Character.digit(high, 16);
        int l = Character.digit(low, 16);
        return h < 0 || l < 0 ? -1 : h * 16 + l;
    }
}
