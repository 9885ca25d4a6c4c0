package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * A split line over a sku stocked one unit at each of many locations is served from at most
 * stockhold.limits.locations-per-line (10) of them, and a whole request from at most
 * stockhold.limits.allocations-per-reservation (200): the reservation's lines, its stored answer and its event stay
 * bounded whatever the number of locations (one request once made 5,000 lines, a 175 KB answer and a 255 KB event).
 */
@QuarkusTest
class SplitBoundsTest extends TenantFixture {

    @Test
    void shouldServeASplitLineFromAtMostItsBoundOfLocations() {
        List<String> adjustments = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            adjustments.add("{\"sku\":\"" + sku + "\",\"location\":\"L-" + i + "\",\"delta\":1}");
        }
        api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .body("{\"adjustments\":[" + String.join(",", adjustments) + "]}").post("/v1/stock/adjustments").then().statusCode(200);

        api.reserve(Api.key(), body("split", sku, 30)).then().statusCode(409).body("type", endsWith("/insufficient-stock"));
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();

        Response partial = api.reserve(Api.key(), body("partial", sku, 30));
        partial.then().statusCode(201).body("lines[0].allocations", hasSize(10)).body("lines[0].shortfall", equalTo(20));
        api.reserve(Api.key(), body("split", sku, 10)).then().statusCode(201).body("lines[0].allocations", hasSize(10));
        api.request().contentType(ContentType.JSON).body(body("split", sku, 15)).post("/v1/availability").then().statusCode(200);

        assertThat(db.queryLong("SELECT count(*) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id "
                + "WHERE r.tenant_id = ?", api.tenant())).isEqualTo(20);
        assertThat(db.queryLong("SELECT max(octet_length(payload)) FROM outbox_events WHERE tenant_id = ?", api.tenant()))
                .isLessThan(8_000);
    }

    private static String body(String allocation, String sku, int quantity) {
        return "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}],\"allocation\":\"" + allocation + "\"}";
    }
}
