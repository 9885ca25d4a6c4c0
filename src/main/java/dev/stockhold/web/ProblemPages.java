package dev.stockhold.web;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.stockhold.StockholdConfig;
import io.quarkus.runtime.StartupEvent;

/** Where every problem {@code type} points: a short page per slug, what it means and what to do. No token needed. */
@Path("/problems")
@PermitAll
@Tag(name = "problems")
public class ProblemPages {

    void useConfiguredBase(@Observes StartupEvent event, StockholdConfig config) {
        ProblemType.useBase(config.problems().baseUri());
    }

    @GET
    @Path("{slug}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(summary = "The documentation page of one problem type")
    @APIResponse(responseCode = "200", description = "A short HTML page", content = @Content(mediaType = MediaType.TEXT_HTML,
            schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING)))
    @APIResponse(responseCode = "404", description = "not-found: no problem type has this slug")
    public String page(@PathParam("slug") String slug) {
        ProblemType type = ProblemType.ofSlug(slug)
                .orElseThrow(() -> new ProblemException(ProblemType.NOT_FOUND, "No problem type '" + slug + "'"));
        return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>%1$s (%2$d) - Stockhold</title></head>
                <body><h1>%1$s</h1>
                <p><code>%3$s</code>, HTTP %2$d</p>
                <h2>What it means</h2><p>%4$s</p>
                <h2>What to do</h2><p>%5$s</p>
                </body></html>
                """.formatted(escape(type.title()), type.status(), type.slug(), escape(type.meaning()), escape(type.action()));
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
