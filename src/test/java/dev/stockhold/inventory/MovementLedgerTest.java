package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * GET /v1/items/{sku}/stock/{location}/movements: one entry per change of on hand or committed, written with the change,
 * none for holds or replays, and the entries of a record sum to its on hand and committed.
 */
@QuarkusTest
class MovementLedgerTest extends TenantFixture {

    @Test
    void shouldRecordEveryChangeOfOnHandOrCommittedWithItsSource() {
        api.request().contentType(ContentType.JSON).body("{\"onHand\":20,\"reference\":\"https://wms.example.com/counts/1\"}")
                .put("/v1/items/{sku}/stock/default", sku).then().statusCode(200);
        String adjustKey = Api.key();
        adjust(adjustKey, "{\"delta\":-2,\"reason\":\"damaged\",\"reference\":\"urn:rma:77\"}").then().statusCode(200);
        adjust(adjustKey, "{\"delta\":-2,\"reason\":\"damaged\",\"reference\":\"urn:rma:77\"}").then().statusCode(200)
                .header("Idempotent-Replayed", "true");
        String sold = api.reserve(Api.key(), sku, 3).path("id");
        api.confirm(sold).then().statusCode(200);
        String deferred = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":5}],\"fulfilment\":\"deferred\"}")
                .path("id");
        String cancelled = api.reserve(Api.key(), sku, 1).path("id");
        api.cancel(cancelled).then().statusCode(200);
        api.confirm(deferred).then().statusCode(200);
        String fulfilKey = Api.key();
        api.fulfil(fulfilKey, deferred, Api.line(sku, 4)).then().statusCode(200);
        api.release(Api.key(), deferred, Api.line(sku, 1)).then().statusCode(200);

        Response page = movements("");
        page.then().statusCode(200).body("items", hasSize(6)).body("nextCursor", nullValue());
        List<Map<String, Object>> items = page.path("items");
        assertThat(items).extracting(m -> m.get("kind")).containsExactly("release", "fulfil", "confirm", "confirm", "adjust", "set");
        assertThat(items).extracting(m -> m.get("seq")).containsExactly(6, 5, 4, 3, 2, 1);
        // on hand 20 - 2 - 3 - 4 = 11; committed 5 - 4 - 1 = 0
        assertThat(items.get(0)).containsEntry("onHandDelta", 0).containsEntry("committedDelta", -1).containsEntry("onHand", 11)
                .containsEntry("committed", 0).containsEntry("reservationId", deferred).containsEntry("actor", "test-user");
        assertThat(items.get(1)).containsEntry("onHandDelta", -4).containsEntry("committedDelta", -4)
                .containsEntry("idempotencyKey", fulfilKey);
        assertThat(items.get(2)).containsEntry("onHandDelta", 0).containsEntry("committedDelta", 5).containsEntry("reservationId",
                deferred);
        assertThat(items.get(3)).containsEntry("onHandDelta", -3).containsEntry("committedDelta", 0).containsEntry("reservationId", sold);
        assertThat(items.get(4)).containsEntry("onHandDelta", -2).containsEntry("reason", "damaged")
                .containsEntry("reference", "urn:rma:77")
                .containsEntry("idempotencyKey", adjustKey).containsEntry("version", 2);
        assertThat(items.get(5)).containsEntry("onHandDelta", 20).containsEntry("reference", "https://wms.example.com/counts/1")
                .containsEntry("version", 1).containsEntry("actor", "test-user");

        api.request().get("/v1/items/{sku}/stock/default", sku).then().body("onHand", equalTo(11)).body("committed", equalTo(0));
        assertThat(db.queryLong("SELECT sum(on_hand_delta) FROM stock_movements WHERE tenant_id = ? AND sku = ?", api.tenant(), sku))
                .isEqualTo(11);
        assertThat(db.queryLong("SELECT sum(committed_delta) FROM stock_movements WHERE tenant_id = ? AND sku = ?", api.tenant(), sku))
                .isZero();
        assertThat(db.queryLong("SELECT movements FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(6);
    }

    @Test
    void shouldPageNewestFirstAndFilterByKindAndTime() {
        api.setOnHand(sku, "default", 10, null).then().statusCode(200);
        Instant between = Instant.now();
        for (int i = 0; i < 4; i++) {
            adjust(Api.key(), "{\"delta\":1}").then().statusCode(200);
        }
        Response first = movements("?limit=3");
        first.then().statusCode(200).body("items.seq", equalTo(List.of(5, 4, 3)));
        String cursor = first.path("nextCursor");
        movements("?limit=3&cursor=" + cursor).then().statusCode(200).body("items.seq", equalTo(List.of(2, 1)))
                .body("nextCursor", nullValue());
        movements("?kind=set").then().body("items.seq", equalTo(List.of(1)));
        movements("?from=" + between).then().body("items.kind", equalTo(List.of("adjust", "adjust", "adjust", "adjust")));
        movements("?to=" + between).then().body("items.kind", equalTo(List.of("set")));

        movements("?limit=3&kind=adjust&cursor=" + cursor).then().statusCode(400).body("type", endsWith("/validation-failed"));
        movements("?kind=hold").then().statusCode(400).body("violations[0].field", equalTo("kind"))
                .body("violations[0].message", equalTo(
                        "must be one of opening, set, adjust, confirm, fulfil, release, snapshot, transfer-out, in-transit, transfer-in, transfer-return, purchase-receipt"));
        movements("?limit=0").then().statusCode(400);
        api.request().get("/v1/items/{sku}/stock/{location}/movements", sku, "NOWHERE").then().statusCode(404)
                .body("type", endsWith("/item-not-found"));
        Api.newTenant().request().get("/v1/items/{sku}/stock/default/movements", sku).then().statusCode(404);
    }

    @Test
    void shouldWriteNoEntryForHoldsAndRefuseAReferenceThatIsNotAnAbsoluteUri() {
        api.setOnHand(sku, "default", 10, null).then().statusCode(200);
        String id = api.reserve(Api.key(), sku, 2).path("id");
        api.cancel(id).then().statusCode(200);
        assertThat(db.queryLong("SELECT count(*) FROM stock_movements WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(1);

        String key = Api.key();
        adjust(key, "{\"delta\":1,\"reference\":\"not a uri\"}").then().statusCode(400).body("violations[0].field", equalTo("reference"));
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        api.request().contentType(ContentType.JSON).body("{\"onHand\":5,\"reference\":\"relative/path\"}")
                .put("/v1/items/{sku}/stock/default", sku).then().statusCode(400);
        movements("").then().body("items", hasSize(1));
    }

    private Response adjust(String key, String body) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key).body(body)
                .post("/v1/items/{sku}/stock/default/adjustments", sku);
    }

    private Response movements(String query) {
        return api.request().urlEncodingEnabled(false).get("/v1/items/" + sku + "/stock/default/movements" + query);
    }
}
