package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Safety stock and low-stock thresholds: reservations see available - safetyStock, a record's own values or its
 * location's defaults, and stock.low / stock.depleted / stock.replenished fire on exactly the crossings.
 */
@QuarkusTest
class SafetyStockTest extends TenantFixture {

    @Test
    void shouldKeepTheSafetyStockFromReservations() {
        String sku = Api.sku();
        limit(sku, "default", 10, 2, null, null).then().statusCode(200).body("safetyStock", org.hamcrest.Matchers.is(2))
                .body("reservable", org.hamcrest.Matchers.is(8)).body("available", org.hamcrest.Matchers.is(10));

        api.reserve(Api.key(), sku, 9).then().statusCode(409).body("type", org.hamcrest.Matchers.endsWith("/insufficient-stock"));
        api.reserve(Api.key(), sku, 8).then().statusCode(201);

        Response record = record(sku, "default");
        assertThat(record.<Integer>path("held")).isEqualTo(8);
        assertThat(record.<Integer>path("available")).isEqualTo(2);
        assertThat(record.<Integer>path("reservable")).isZero();
        assertThat(stockEvents(sku, "default")).containsSubsequence("dev.stockhold.stock.depleted.v1");
        // the units above it stay with admins: on hand may still fall to held (I7), never below
        api.setOnHand(sku, "default", 8, null).then().statusCode(200);
        api.setOnHand(sku, "default", 7, null).then().statusCode(409);
    }

    @Test
    void shouldHoldNoMoreThanAvailableAboveSafetyStockUnderConcurrentRequests() {
        String sku = Api.sku();
        limit(sku, "default", 10, 2, null, null).then().statusCode(200);

        List<Integer> statuses = Race.run(16, i -> api.reserve(Api.key(), sku, 1).statusCode());

        assertThat(statuses).filteredOn(s -> s == 201).hasSize(8);
        assertThat(statuses).filteredOn(s -> s == 409).hasSize(8);
        assertThat(db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(8);
    }

    @Test
    void shouldServeSplitPartialAndTheDryRunFromWhatIsAboveSafetyStock() {
        String sku = Api.sku();
        limit(sku, "WH-1", 5, 3, null, null).then().statusCode(200);
        limit(sku, "WH-2", 5, 0, null, null).then().statusCode(200);

        api.request().contentType(ContentType.JSON).body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":8}]}").post("/v1/availability")
                .then().statusCode(200).body("reservable", org.hamcrest.Matchers.is(false));
        api.reserve(Api.key(), "{\"allocation\":\"partial\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":9}]}").then().statusCode(201)
                .body("lines[0].quantity", org.hamcrest.Matchers.is(7)).body("lines[0].shortfall", org.hamcrest.Matchers.is(2));
        assertThat(record(sku, "WH-1").<Integer>path("held")).isEqualTo(2);
    }

    @Test
    void shouldGiveRecordsTheirLocationsDefaultsUnlessTheyHaveTheirOwn() {
        String own = Api.sku();
        String inherits = Api.sku();
        api.setOnHand(inherits, "WH-9", 10, null).then().statusCode(200);
        limit(own, "WH-9", 10, 1, null, null).then().statusCode(200);

        putLocation("WH-9", "{\"priority\":50,\"safetyStock\":4,\"lowStockThreshold\":6}").then().statusCode(200)
                .body("safetyStock", org.hamcrest.Matchers.is(4)).body("lowStockThreshold", org.hamcrest.Matchers.is(6));
        String created = Api.sku();
        api.setOnHand(created, "WH-9", 10, null).then().statusCode(200).body("safetyStock", org.hamcrest.Matchers.is(4));

        assertThat(record(inherits, "WH-9").<Integer>path("safetyStock")).isEqualTo(4);
        assertThat(record(inherits, "WH-9").<Integer>path("lowStockThreshold")).isEqualTo(6);
        assertThat(record(own, "WH-9").<Integer>path("safetyStock")).isEqualTo(1);
        assertThat(record(own, "WH-9").<Integer>path("lowStockThreshold")).isEqualTo(6);
        // a PUT that leaves the defaults out keeps them (a client that only knows priority changes only priority)
        putLocation("WH-9", "{\"priority\":60}").then().statusCode(200).body("safetyStock", org.hamcrest.Matchers.is(4));
        api.request().get("/v1/locations").then().statusCode(200)
                .body("items.find { it.location == 'WH-9' }.lowStockThreshold", org.hamcrest.Matchers.is(6));
    }

    @Test
    void shouldPublishLowOncePerDownwardCrossing() {
        String sku = Api.sku();
        limit(sku, "default", 10, null, 5, null).then().statusCode(200);

        String a = api.reserve(Api.key(), sku, 4).then().statusCode(201).extract().path("id");
        assertThat(lowEvents(sku)).isZero();
        String b = api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id");
        assertThat(lowEvents(sku)).as("available 5 = threshold").isEqualTo(1);
        String c = api.reserve(Api.key(), sku, 1).then().statusCode(201).extract().path("id");
        assertThat(lowEvents(sku)).as("still low: no second event").isEqualTo(1);
        api.cancel(b).then().statusCode(200);
        api.cancel(c).then().statusCode(200);
        assertThat(lowEvents(sku)).as("back above").isEqualTo(1);
        api.adjust(Api.key(), sku, "default", -1).then().statusCode(200);
        assertThat(lowEvents(sku)).as("down again, by an adjustment").isEqualTo(2);
        api.cancel(a).then().statusCode(200);

        String low = db.queryStrings("SELECT payload::text FROM outbox_events WHERE tenant_id = ? AND event_type = ? ORDER BY seq DESC",
                api.tenant(), "dev.stockhold.stock.low.v1").get(0);
        assertThat(low).contains("\"available\":5", "\"lowStockThreshold\":5", "\"onHand\":9");
    }

    @Test
    void shouldPublishReplenishedWhenALowerSafetyStockFreesUnits() {
        String sku = Api.sku();
        String etag = limit(sku, "WH-3", 10, 2, null, null).then().statusCode(200).extract().header("ETag");
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":8,\"location\":\"WH-3\"}]}").then().statusCode(201);
        assertThat(stockEvents(sku, "WH-3")).endsWith("dev.stockhold.stock.depleted.v1");
        etag = record(sku, "WH-3").header("ETag");

        limit(sku, "WH-3", 10, 0, null, etag).then().statusCode(200).body("reservable", org.hamcrest.Matchers.is(2));
        assertThat(stockEvents(sku, "WH-3")).endsWith("dev.stockhold.stock.changed.v1", "dev.stockhold.stock.replenished.v1");

        // the same by a location default: a record that takes it is replenished, with no write of its own
        String other = Api.sku();
        api.setOnHand(other, "WH-4", 3, null).then().statusCode(200);
        putLocation("WH-4", "{\"priority\":100,\"safetyStock\":3}").then().statusCode(200);
        assertThat(stockEvents(other, "WH-4")).endsWith("dev.stockhold.stock.depleted.v1");
        putLocation("WH-4", "{\"priority\":100,\"safetyStock\":1}").then().statusCode(200);
        assertThat(stockEvents(other, "WH-4")).endsWith("dev.stockhold.stock.depleted.v1", "dev.stockhold.stock.replenished.v1");
        assertThat(record(other, "WH-4").<Integer>path("reservable")).isEqualTo(2);
    }

    @Test
    void shouldRefuseNegativeOrFractionalLimits() {
        String sku = Api.sku();
        api.request().contentType(ContentType.JSON).body("{\"onHand\":5,\"safetyStock\":-1}").put("/v1/items/{sku}/stock/default", sku)
                .then().statusCode(400).body("type", org.hamcrest.Matchers.endsWith("/validation-failed"));
        api.request().contentType(ContentType.JSON).body("{\"onHand\":5,\"lowStockThreshold\":1.5}")
                .put("/v1/items/{sku}/stock/default", sku).then().statusCode(400);
        putLocation("WH-5", "{\"priority\":1,\"safetyStock\":\"2\"}").then().statusCode(400);
        assertThat(db.queryLong("SELECT count(*) FROM stock_records WHERE tenant_id = ?", api.tenant())).isZero();
    }

    private Response limit(String sku, String location, long onHand, Integer safetyStock, Integer threshold, String ifMatch) {
        StringBuilder body = new StringBuilder("{\"onHand\":").append(onHand);
        if (safetyStock != null) {
            body.append(",\"safetyStock\":").append(safetyStock);
        }
        if (threshold != null) {
            body.append(",\"lowStockThreshold\":").append(threshold);
        }
        var spec = api.request().contentType(ContentType.JSON).body(body.append('}').toString());
        if (ifMatch != null) {
            spec = spec.header("If-Match", ifMatch);
        }
        return spec.put("/v1/items/{sku}/stock/{location}", sku, location);
    }

    private Response putLocation(String location, String body) {
        return api.request().contentType(ContentType.JSON).body(body).put("/v1/locations/{location}", location);
    }

    private Response record(String sku, String location) {
        return api.request().get("/v1/items/{sku}/stock/{location}", sku, location).then().statusCode(200).extract().response();
    }

    private long lowEvents(String sku) {
        return db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND event_type = ?", api.tenant(),
                "dev.stockhold.stock.low.v1");
    }

    private List<String> stockEvents(String sku, String location) {
        return db.queryStrings("SELECT event_type FROM outbox_events WHERE tenant_id = ? AND aggregate_id = ?::uuid ORDER BY seq",
                api.tenant(), StockEvents.aggregateId(api.tenant(), new StockKey(sku, location)).toString());
    }
}
