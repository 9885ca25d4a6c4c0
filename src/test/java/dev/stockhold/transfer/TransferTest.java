package dev.stockhold.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Transfers: shipping takes on hand at the origin (never below what is held, committed and kept as safety stock) and
 * puts it in transit at the destination; receipts, in parts, move it to on hand there, each once per key; a cancel
 * returns the rest. Every change is a ledger entry naming the transfer at its end, and I2 holds at both ends.
 */
@QuarkusTest
class TransferTest extends TenantFixture {

    @Test
    void shouldShipReceiveInPartsAndRecordBothEndsInTheLedger() {
        api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);

        Response shipped = ship(Api.key(), "WH-1", "WH-2", 6);
        shipped.then().statusCode(201).header("Location", endsWith("/v1/transfers/" + shipped.path("id"))).header("ETag", "\"1\"")
                .body("status", is("IN_TRANSIT")).body("inTransit", is(6)).body("received", is(0));
        String id = shipped.path("id");
        assertRecord("WH-1", 4, 0);
        assertRecord("WH-2", 0, 6);
        // in transit is no write of on hand: the destination's version stays (every version has its stock.changed)
        assertThat(db.queryLong("SELECT version FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'WH-2'", api.tenant(),
                sku)).isZero();

        receive(id, Api.key(), 2).then().statusCode(200).body("received", is(2)).body("inTransit", is(4)).header("ETag", "\"2\"");
        assertRecord("WH-2", 2, 4);
        receive(id, Api.key(), 5).then().statusCode(409).body("type", endsWith("/over-receipt"));
        receive(id, Api.key(), 4).then().statusCode(200).body("status", is("RECEIVED")).body("inTransit", is(0));
        assertRecord("WH-2", 6, 0);
        receive(id, Api.key(), 1).then().statusCode(409).body("type", endsWith("/invalid-transfer-state"));
        api.request().post("/v1/transfers/{id}/cancel", id).then().statusCode(409).body("type", endsWith("/invalid-transfer-state"));

        assertThat(db.queryStrings("SELECT kind || ' ' || on_hand_delta || ' ' || in_transit_delta FROM stock_movements "
                + "WHERE tenant_id = ? AND sku = ? AND transfer_id = ?::uuid ORDER BY location, seq", api.tenant(), sku, id))
                .containsExactly("transfer-out -6 0", "in-transit 0 6", "transfer-in 2 -2", "transfer-in 4 -4");
        api.request().queryParam("kind", "transfer-in").get("/v1/items/{sku}/stock/{location}/movements", sku, "WH-2").then()
                .statusCode(200).body("items.transferId", org.hamcrest.Matchers.everyItem(is(id)))
                .body("items.inTransitDelta", org.hamcrest.Matchers.contains(-4, -2));
        assertThat(db.queryStrings("SELECT event_type FROM outbox_events WHERE tenant_id = ? AND aggregate_id = ?::uuid ORDER BY seq",
                api.tenant(), id)).containsExactly("dev.stockhold.transfer.shipped.v1", "dev.stockhold.transfer.received.v1",
                        "dev.stockhold.transfer.received.v1");
        // every change of on hand is a stock.changed of its kind, with what it moved
        assertThat(db.queryStrings("""
                SELECT (payload::json->'data'->>'kind') || ' ' || (payload::json->'data'->>'delta') FROM outbox_events
                 WHERE tenant_id = ? AND event_type = 'dev.stockhold.stock.changed.v1' AND payload::json->>'subject' IN (?, ?)
                 ORDER BY seq""", api.tenant(), sku + "@WH-1", sku + "@WH-2")).containsExactly("set 10", "transfer -6", "transfer 2",
                "transfer 4");
        assertConserved();
    }

    @Test
    void shouldMoveStockOnceForAReceiptRetriedWithItsKeyEvenAtOnce() {
        api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);
        String id = ship(Api.key(), "WH-1", "WH-2", 8).then().statusCode(201).extract().path("id");
        String key = Api.key();

        List<Integer> statuses = Race.run(8, i -> receive(id, key, 3).statusCode());

        assertThat(statuses).allMatch(s -> s == 200 || s == 409);
        assertThat(statuses).filteredOn(s -> s == 200).isNotEmpty();
        receive(id, key, 3).then().statusCode(200).header("Idempotent-Replayed", "true").body("received", is(3));
        assertRecord("WH-2", 3, 5);
        // distinct keys at once: exactly the 5 units still in transit are received, one each, never more
        List<Integer> receipts = Race.run(8, i -> receive(id, Api.key(), 1).statusCode());
        assertThat(receipts).filteredOn(s -> s == 200).hasSize(5);
        // the rest are refused as receipts beyond what is in transit, never an error
        assertThat(receipts).filteredOn(s -> s == 409).hasSize(3);
        assertRecord("WH-2", 8, 0);
        assertConserved();
    }

    @Test
    void shouldRefuseToShipBelowHeldCommittedAndSafetyStockAndStoreTheRefusal() {
        api.request().contentType(ContentType.JSON).body("{\"onHand\":10,\"safetyStock\":2}").put("/v1/items/{sku}/stock/{location}", sku,
                "WH-1").then().statusCode(200);
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":5,\"location\":\"WH-1\"}]}").then().statusCode(201);
        String key = Api.key();

        // 10 - 4 = 6 would be below 5 held + 2 safety stock
        ship(key, "WH-1", "WH-2", 4).then().statusCode(409).body("type", endsWith("/insufficient-stock-to-ship"))
                .body("detail", containsString("5 held"));
        ship(key, "WH-1", "WH-2", 4).then().statusCode(409).header("Idempotent-Replayed", "true");
        assertRecord("WH-1", 10, 0);
        ship(Api.key(), "WH-1", "WH-2", 3).then().statusCode(201);
        assertRecord("WH-1", 7, 0);
    }

    @Test
    void shouldReturnWhatWasNotReceivedOnCancelOnce() {
        api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);
        String id = ship(Api.key(), "WH-1", "WH-2", 6).then().statusCode(201).extract().path("id");
        receive(id, Api.key(), 2).then().statusCode(200);

        api.request().post("/v1/transfers/{id}/cancel", id).then().statusCode(200).body("status", is("CANCELLED")).body("returned", is(4))
                .body("inTransit", is(0));
        api.request().post("/v1/transfers/{id}/cancel", id).then().statusCode(200).body("returned", is(4));
        assertRecord("WH-1", 8, 0);
        assertRecord("WH-2", 2, 0);
        receive(id, Api.key(), 1).then().statusCode(409).body("type", endsWith("/invalid-transfer-state"));
        assertThat(db.queryStrings("SELECT event_type FROM outbox_events WHERE tenant_id = ? AND aggregate_id = ?::uuid ORDER BY seq",
                api.tenant(), id)).endsWith("dev.stockhold.transfer.cancelled.v1");
        assertConserved();
    }

    @Test
    void shouldRefuseBadTransfersWithoutStoringThemAndHideOtherTenantsTransfers() {
        api.setOnHand(sku, "WH-1", 5, null).then().statusCode(200);
        ship(Api.key(), "WH-1", "WH-1", 1).then().statusCode(400).body("violations[0].field", is("to"));
        ship(Api.key(), "WH-1", "WH-2", 0).then().statusCode(400);
        String key = Api.key();
        ship(key, "WH-9", "WH-2", 1).then().statusCode(404).body("type", endsWith("/item-not-found"));
        // not stored: the same key ships once the origin has the sku
        api.setOnHand(sku, "WH-9", 1, null).then().statusCode(200);
        String id = ship(key, "WH-9", "WH-2", 1).then().statusCode(201).extract().path("id");

        Api other = Api.newTenant();
        other.request().get("/v1/transfers/{id}", id).then().statusCode(404).body("type", endsWith("/transfer-not-found"));
        other.request().post("/v1/transfers/{id}/cancel", id).then().statusCode(404);
        api.request().get("/v1/transfers/{id}", id.toUpperCase()).then().statusCode(404);
        api.request().get("/v1/transfers/{id}", id).then().statusCode(200).header("ETag", "\"1\"").body("from", is("WH-9"));
    }

    private Response ship(String key, String from, String to, int quantity) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"sku\":\"" + sku + "\",\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"quantity\":" + quantity
                        + ",\"reference\":\"TO-1\",\"expectedAt\":\"2026-12-10T09:00:00Z\"}")
                .post("/v1/transfers");
    }

    private Response receive(String id, String key, int quantity) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key).body("{\"quantity\":" + quantity + "}")
                .post("/v1/transfers/{id}/receipts", id);
    }

    private void assertRecord(String location, long onHand, long inTransit) {
        Response record = api.request().get("/v1/items/{sku}/stock/{location}", sku, location);
        record.then().statusCode(200);
        assertThat(record.<Integer>path("onHand")).as("on hand at %s", location).isEqualTo((int) onHand);
        assertThat(record.<Integer>path("inTransit")).as("in transit at %s", location).isEqualTo((int) inTransit);
    }

    /**
     * I2 at every record of the sku: on hand is what was received minus what was sold, and equals its ledger's sum; in
     * transit equals what open transfers still carry there.
     */
    private void assertConserved() {
        assertThat(db.queryLong("""
                SELECT count(*) FROM stock_records s
                 WHERE s.tenant_id = ? AND s.sku = ?
                   AND (s.on_hand <> s.received - s.sold
                        OR s.on_hand <> (SELECT coalesce(sum(on_hand_delta), 0) FROM stock_movements m
                                          WHERE m.tenant_id = s.tenant_id AND m.sku = s.sku AND m.location = s.location)
                        OR s.in_transit <> (SELECT coalesce(sum(in_transit_delta), 0) FROM stock_movements m
                                             WHERE m.tenant_id = s.tenant_id AND m.sku = s.sku AND m.location = s.location)
                        OR s.in_transit <> (SELECT coalesce(sum(t.quantity - t.received - t.returned), 0) FROM transfers t
                                             WHERE t.tenant_id = s.tenant_id AND t.sku = s.sku AND t.to_location = s.location))""",
                api.tenant(), sku)).isZero();
    }
}
