package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * POST /v1/stock/adjustments: many records' deltas in one transaction, all or nothing, once per key, one ledger entry
 * and one stock.changed event per record, and the refusals of a single adjustment.
 */
@QuarkusTest
class BatchAdjustmentTest extends TenantFixture {

    String a;
    String b;

    @BeforeEach
    void setUp() {
        // a before b in lock order, so the answer's order is known
        a = "A" + Api.sku();
        b = "B" + Api.sku();
        api.setOnHand(a, "WH-1", 10, null).then().statusCode(200);
        api.setOnHand(b, "WH-2", 4, null).then().statusCode(200);
    }

    @Test
    void shouldApplyEveryDeltaOnceWithOneEntryAndEventPerRecord() {
        String key = Api.key();
        String body = body(adjustment(b, "WH-2", 6, "received") + "," + adjustment(a, "WH-1", -3, "damaged") + ","
                + adjustment(a, "WH-9", 5, null));
        Response applied = post(key, body);
        applied.then().statusCode(200).body("items.onHand", contains(7, 5, 10)).body("items.location", contains("WH-1", "WH-9", "WH-2"));
        Response again = post(key, body);
        again.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(again.asString()).isEqualTo(applied.asString());

        assertThat(db.queryLong("SELECT count(*) FROM stock_movements WHERE tenant_id = ? AND idempotency_key = ?", api.tenant(), key))
                .isEqualTo(3);
        assertThat(db.queryStrings("SELECT sku || '@' || location || '=' || on_hand_delta FROM stock_movements WHERE tenant_id = ? "
                + "AND idempotency_key = ? AND kind = 'adjust' ORDER BY 1", api.tenant(), key))
                .containsExactlyInAnyOrder(a + "@WH-1=-3", a + "@WH-9=5", b + "@WH-2=6");
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND event_type = 'dev.stockhold.stock.changed.v1' "
                + "AND payload::json -> 'data' ->> 'kind' = 'adjust'", api.tenant())).isEqualTo(3);
    }

    @Test
    void shouldRefuseTheWholeBatchWhenOneRecordWouldFallBelowHeld() {
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + b + "\",\"quantity\":3,\"location\":\"WH-2\"}]}").then().statusCode(201);
        String key = Api.key();
        String body = body(adjustment(a, "WH-1", 2, null) + "," + adjustment(b, "WH-2", -2, null));
        post(key, body).then().statusCode(409).body("type", endsWith("/stock-below-held"));
        assertThat(onHand(a, "WH-1")).isEqualTo(10);
        assertThat(onHand(b, "WH-2")).isEqualTo(4);
        assertThat(db.queryLong("SELECT count(*) FROM stock_movements WHERE tenant_id = ? AND idempotency_key = ?", api.tenant(), key))
                .isZero();
        // the refusal is stored: the same key answers it again after the stock is there
        api.setOnHand(b, "WH-2", 50, null).then().statusCode(200);
        post(key, body).then().statusCode(409).header("Idempotent-Replayed", "true");
        post(key, body(adjustment(a, "WH-1", 2, null))).then().statusCode(422).body("type", endsWith("/idempotency-key-reused"));
    }

    @Test
    void shouldRefuseBadBatchesWithNothingStored() {
        String key = Api.key();
        post(key, body("")).then().statusCode(400).body("type", endsWith("/validation-failed"));
        post(key, body(adjustment(a, "WH-1", 0, null))).then().statusCode(400).body("violations[0].field",
                equalTo("adjustments[0].delta"));
        post(key, body(adjustment(a, "WH-1", 1, null) + "," + adjustment(a, "WH-1", 2, null))).then().statusCode(400)
                .body("violations[0].field", equalTo("adjustments[1]"));
        post(key, body(String.join(",", java.util.Collections.nCopies(501, adjustment(a, "WH-1", 1, null))))).then().statusCode(400);
        api.request().contentType(ContentType.JSON).body(body(adjustment(a, "WH-1", 1, null))).post("/v1/stock/adjustments").then()
                .statusCode(400).body("type", endsWith("/idempotency-key-missing"));
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        assertThat(onHand(a, "WH-1")).isEqualTo(10);
    }

    /** Batches over the same records in opposite orders, all at once: none deadlocks, every delta lands once. */
    @Test
    void shouldApplyConcurrentBatchesOverTheSameRecordsWithoutLosingOne() {
        List<Integer> statuses = Race.run(8, i -> post(Api.key(), i % 2 == 0
                ? body(adjustment(a, "WH-1", 1, null) + "," + adjustment(b, "WH-2", 1, null))
                : body(adjustment(b, "WH-2", 1, null) + "," + adjustment(a, "WH-1", 1, null))).statusCode());
        assertThat(statuses).containsOnly(200);
        assertThat(onHand(a, "WH-1")).isEqualTo(18);
        assertThat(onHand(b, "WH-2")).isEqualTo(12);
    }

    private long onHand(String sku, String location) {
        return db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = ?", api.tenant(), sku,
                location);
    }

    private Response post(String key, String body) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key).body(body).post("/v1/stock/adjustments");
    }

    private static String adjustment(String sku, String location, long delta, String reason) {
        return "{\"sku\":\"" + sku + "\",\"location\":\"" + location + "\",\"delta\":" + delta
                + (reason == null ? "" : ",\"reason\":\"" + reason + "\"") + "}";
    }

    private static String body(String adjustments) {
        return "{\"adjustments\":[" + adjustments + "]}";
    }
}
