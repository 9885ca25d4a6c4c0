package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** Which location serves a line (docs/api.md, "Allocation"), and carts over several locations racing (I1, no deadlock). */
@QuarkusTest
class AllocationTest extends TenantFixture {

    @Test
    void shouldServeALineWholeFromTheFirstLocationInAllocationOrderThatCoversIt() {
        String sku = Api.sku();
        api.putLocation("NEAR", 10);
        api.putLocation("FAR", 20);
        api.setOnHand(sku, "NEAR", 2, null).then().statusCode(200);
        api.setOnHand(sku, "FAR", 10, null).then().statusCode(200);
        api.setOnHand(sku, "default", 100, null).then().statusCode(200);
        assertThat(api.request().get("/v1/locations").<List<String>>path("items.location")).containsExactly("NEAR", "FAR", "default");

        assertThat(locationsOf(reserve(line(sku, 3, null)))).containsExactly("FAR"); // NEAR has 2: never split
        assertThat(locationsOf(reserve(line(sku, 2, null)))).containsExactly("NEAR");
        assertThat(locationsOf(reserve(line(sku, 7, null)))).containsExactly("FAR");
        assertThat(locationsOf(reserve(line(sku, 1, null)))).containsExactly("default");
        api.putLocation("default", 0);
        assertThat(locationsOf(reserve(line(sku, 1, null)))).containsExactly("default");

        assertThat(db.queryStrings("SELECT location || '=' || held FROM stock_records WHERE tenant_id = ? ORDER BY location", api.tenant()))
                .containsExactly("FAR=10", "NEAR=2", "default=2");
    }

    @Test
    void shouldNotFallBackFromANamedLocationAndNameUnknownRecords() {
        String sku = Api.sku();
        api.setOnHand(sku, "WH-1", 1, null);
        api.setOnHand(sku, "WH-2", 50, null);

        api.reserve(Api.key(), body(line(sku, 2, "WH-1"))).then().statusCode(409)
                .body("type", org.hamcrest.Matchers.endsWith("/insufficient-stock"));
        api.reserve(Api.key(), body(line(sku, 2, "WH-3"))).then().statusCode(422)
                .body("type", org.hamcrest.Matchers.endsWith("/unknown-sku"));
        api.reserve(Api.key(), body(line("NOPE-" + sku, 2, null))).then().statusCode(422);
        api.reserve(Api.key(), body(line(sku, 51, null))).then().statusCode(409);
        api.reserve(Api.key(), body(line(sku, 1, "WH-1") + "," + line(sku, 1, null))).then().statusCode(400)
                .body("violations[0].field", org.hamcrest.Matchers.equalTo("lines[1].sku"));
        api.reserve(Api.key(), body(line(sku, 1, "WH-1") + "," + line(sku, 1, "WH-1"))).then().statusCode(400);
        api.reserve(Api.key(), body(line(sku, 1, "bad location"))).then().statusCode(400);
        assertThat(db.queryLong("SELECT sum(held) FROM stock_records WHERE tenant_id = ?", api.tenant())).isZero();

        Response both = reserve(line(sku, 1, "WH-1") + "," + line(sku, 5, "WH-2"));
        assertThat(locationsOf(both)).containsExactly("WH-1", "WH-2");
        api.cancel(both.path("id")).then().statusCode(200);
        assertThat(db.queryLong("SELECT sum(held) FROM stock_records WHERE tenant_id = ?", api.tenant())).isZero();
    }

    /**
     * Carts over two skus at two locations, taking their lines in opposite orders, and carts without locations, all at
     * once: every record's held equals its HELD lines and never passes on hand, and no request fails (a deadlock would
     * surface as a 5xx).
     */
    @Test
    void shouldNeverOversellOrDeadlockWithCartsRacingOverTwoLocations() {
        String a = Api.sku();
        String b = Api.sku();
        for (String sku : List.of(a, b)) {
            for (String location : List.of("L1", "L2")) {
                api.setOnHand(sku, location, 12, null).then().statusCode(200);
            }
        }
        List<Integer> statuses = Race.run(48, i -> api.reserve(Api.key(), body(switch (i % 3) {
            case 0 -> line(a, 1, "L1") + "," + line(b, 2, "L2");
            case 1 -> line(b, 2, "L2") + "," + line(a, 1, "L1");
            default -> line(b, 1, null) + "," + line(a, 2, null);
        })).statusCode());

        assertThat(statuses).containsOnly(201, 409).contains(201, 409);
        assertThat(db.queryLong("SELECT count(*) FROM stock_records WHERE tenant_id = ? AND (held > on_hand OR held < 0)", api.tenant()))
                .isZero();
        assertThat(db.queryLong("""
                SELECT count(*) FROM stock_records s WHERE s.tenant_id = ? AND s.held <> (
                    SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                     WHERE r.tenant_id = s.tenant_id AND r.status = 'HELD' AND l.sku = s.sku AND l.location = s.location)
                """, api.tenant())).as("records whose held is not their HELD lines").isZero();
        assertThat(db.queryLong("SELECT count(*) FROM reservations WHERE tenant_id = ?", api.tenant()))
                .isEqualTo(statuses.stream().filter(s -> s == 201).count());
    }

    private Response reserve(String lines) {
        Response created = api.reserve(Api.key(), body(lines));
        created.then().statusCode(201);
        return created;
    }

    private static List<String> locationsOf(Response reservation) {
        return reservation.path("lines.location");
    }

    private static String body(String lines) {
        return "{\"lines\":[" + lines + "]}";
    }

    private static String line(String sku, int quantity, String location) {
        return "{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + (location == null ? "" : ",\"location\":\"" + location + "\"") + "}";
    }
}
