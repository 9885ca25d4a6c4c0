package dev.stockhold.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Management;
import dev.stockhold.support.RawHttp;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Clients cannot choose the HTTP metrics' {@code uri} tags: answers without a token to hundreds of distinct paths (bad
 * escapes the router refuses, refused spellings, unknown items) add at most a few fixed tags, and the API's own requests
 * are still recorded under their templates afterwards (the canary's p99 reads {@code uri="/v1/reservations"}).
 */
@QuarkusTest
class MetricTagsTest {

    private static final Pattern URI = Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"");

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Test
    void shouldTagEveryAnswerByItsTemplateOrAFixedTag() throws Exception {
        for (int i = 0; i < 120; i++) {
            raw("GET /v1/x%ZZ" + i + " HTTP/1.1");
            raw("GET /v1//items/" + i + " HTTP/1.1");
            raw("GET /v1/items/unknown-" + i + "/stock/x" + i + "/movements HTTP/1.1");
        }
        Api api = Api.newTenant();
        String sku = Api.sku();
        api.setStock(sku, 3);
        api.reserve(Api.key(), sku, 1).then().statusCode(201);

        String metrics = Management.given().get("/q/metrics").asString();
        Set<String> uris = new TreeSet<>();
        for (Matcher m = URI.matcher(metrics); m.find();) {
            uris.add(m.group(1));
        }
        assertThat(uris).as("every uri tag").allSatisfy(uri -> assertThat(uri).doesNotContainPattern("%|unknown-|//"))
                .contains("/v1/reservations", "/v1/items/{sku}/stock/{location}/movements", RouteTemplates.UNMATCHED);
        assertThat(uris.size()).isLessThan(40);
        assertThat(metrics).containsPattern("http_server_requests_seconds_count\\{[^}]*method=\"POST\"[^}]*status=\"201\"[^}]*"
                + "uri=\"/v1/reservations\"[^}]*\\} [1-9]");
    }

    @Test
    void shouldMapAPathToTheTemplateItFallsUnder() {
        RouteTemplates routes = new RouteTemplates(List.of("/v1/items/{sku}", "/v1/items/{sku}/stock/{location}",
                "/v1/admin/outbox/dead/requeue", "/v1/admin/outbox/dead/{id}/requeue", "/schemas/events/{type}.json"));
        assertThat(routes.tag("/v1/items/A-1")).isEqualTo("/v1/items/{sku}");
        assertThat(routes.tag("/v1/items/A-1/")).isEqualTo("/v1/items/{sku}");
        assertThat(routes.tag("/v1/items/A-1/stock/WH-1")).isEqualTo("/v1/items/{sku}/stock/{location}");
        assertThat(routes.tag("/v1/admin/outbox/dead/requeue")).isEqualTo("/v1/admin/outbox/dead/requeue");
        assertThat(routes.tag("/v1/admin/outbox/dead/42/requeue")).isEqualTo("/v1/admin/outbox/dead/{id}/requeue");
        assertThat(routes.tag("/schemas/events/a.b.json")).isEqualTo("/schemas/events/{type}.json");
        assertThat(routes.tag("/v1/x%ZZ1")).isEqualTo(RouteTemplates.UNMATCHED);
        assertThat(routes.tag("NOT_FOUND")).isEqualTo("NOT_FOUND");
        assertThat(routes.tag("/v1/items/{sku}")).isEqualTo("/v1/items/{sku}");
    }

    private void raw(String requestLine) throws Exception {
        RawHttp.exchange(port, requestLine + "\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }
}
