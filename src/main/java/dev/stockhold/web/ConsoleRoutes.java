package dev.stockhold.web;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.ConsoleConfig;
import dev.stockhold.StockholdConfig;
import io.quarkus.logging.Log;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The operator console at {@code /console}: static pages (under {@code META-INF/resources/console}) that call the
 * {@code /v1} API with the signed-in user's bearer token, so tenancy and roles are exactly the API's. The service adds
 * no session and no API for it; it only serves the pages with their security headers and one document,
 * {@code /console/config.json}, that tells them where to sign in (the identity provider's issuer and the console's
 * client id, both public) and, in dev mode, the dev token.
 * <ul>
 * <li>A strict Content-Security-Policy: scripts, styles and images from the service only (no inline script, no eval),
 * fetches to the service and the identity provider only, no framing.</li>
 * <li>Every page is revalidated before use ({@code Cache-Control: no-cache} with Last-Modified), so a new version of
 * the service never runs with an old script; config.json is never stored.</li>
 * </ul>
 */
@Singleton
public class ConsoleRoutes {

    static final String ROOT = "/console";
    static final String CONFIG = ROOT + "/config.json";
    private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?");

    private final ConsoleConfig config;
    private final String policy;
    private final ObjectMapper json;

    ConsoleRoutes(StockholdConfig config, ObjectMapper json) {
        this.config = config.console();
        this.policy = contentSecurityPolicy(this.config);
        this.json = json;
    }

    void register(@Observes Router router) {
        if (!config.enabled()) {
            router.route(ROOT + "*").order(-4).handler(ctx -> ctx.response().setStatusCode(404).end());
            return;
        }
        router.route(ROOT).order(-4).handler(ctx -> {
            if (ctx.request().path().equals(ROOT)) {
                ctx.response().setStatusCode(301).putHeader("Location", ROOT + "/").end();
            } else {
                ctx.next();
            }
        });
        router.route(ROOT + "/*").order(-4).handler(this::secure);
        // a worker thread: dev mode reads its token file on each request
        router.get(CONFIG).order(-4).blockingHandler(this::config);
    }

    private void secure(RoutingContext ctx) {
        boolean document = ctx.request().path().equals(CONFIG);
        ctx.addHeadersEndHandler(done -> ctx.response().headers()
                .set("Content-Security-Policy", policy)
                .set("Cache-Control", document ? "no-store" : "no-cache")
                .set("X-Content-Type-Options", "nosniff")
                .set("Referrer-Policy", "no-referrer")
                .set("X-Frame-Options", "DENY")
                .set("Cross-Origin-Opener-Policy", "same-origin"));
        ctx.next();
    }

    private void config(RoutingContext ctx) {
        Map<String, Object> body = new LinkedHashMap<>();
        config.issuer().ifPresent(issuer -> body.put("issuer", issuer));
        body.put("clientId", config.clientId());
        body.put("scope", config.scope());
        devToken().ifPresent(token -> body.put("devToken", token));
        try {
            ctx.response().putHeader("Content-Type", "application/json").end(json.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            ctx.fail(e);
        }
    }

    private Optional<String> devToken() {
        return config.devTokenFile().flatMap(file -> {
            try {
                return Optional.of(Files.readString(Path.of(file)).strip());
            } catch (IOException e) {
                Log.warnf("The console's dev token file %s cannot be read: %s", file, e.getMessage());
                return Optional.empty();
            }
        });
    }

    /**
     * The policy every console response carries; connect-src adds the issuer's origin and the configured ones. A value
     * that is not an http(s) URL (issuer) or origin (connect-src) stops the start: it would otherwise be written into
     * the header as it is.
     */
    public static String contentSecurityPolicy(ConsoleConfig config) {
        Set<String> connect = new LinkedHashSet<>(List.of("'self'"));
        config.issuer().map(ConsoleRoutes::origin).ifPresent(connect::add);
        for (String extra : config.connectSrc().orElse(List.of())) {
            if (!ORIGIN.matcher(extra).matches()) {
                throw new IllegalStateException("STOCKHOLD_CONSOLE_CONNECT_SRC: '" + extra + "' is not an origin (https://host[:port])");
            }
            connect.add(extra);
        }
        return "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src "
                + String.join(" ", connect) + "; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    }

    static String origin(String url) {
        try {
            URI uri = new URI(url);
            String origin = uri.getScheme() + "://" + uri.getRawAuthority();
            if (uri.getRawAuthority() != null && ORIGIN.matcher(origin).matches()) {
                return origin;
            }
        } catch (URISyntaxException e) {
            // refused below
        }
        throw new IllegalStateException("STOCKHOLD_CONSOLE_ISSUER: '" + url + "' is not an http(s) URL");
    }
}
