package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;
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
 * Warehouse counts with a watermark: a count taken at asOf becomes on hand plus what the ledger moved since, never
 * touches held or committed, and an older count arriving after a newer one is skipped.
 */
@QuarkusTest
class SnapshotTest extends TenantFixture {

    @BeforeEach
    void setUp() {
        api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);
    }

    /** Counted 10 at asOf; then 2 fulfilled and 1 held; the count applied afterwards leaves on hand 8 and held 1. */
    @Test
    void shouldKeepWhatChangedAfterTheCountAsTheExampleSays() {
        String asOf = lastMovementAt();
        fulfilled(2);
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1,\"location\":\"WH-1\"}]}").then().statusCode(201);

        String key = Api.key();
        Response applied = snapshot(key, asOf, null, count(sku, 10));
        applied.then().statusCode(200).body("mode", equalTo("partial")).body("records[0].status", equalTo("applied"))
                .body("records[0].before", equalTo(8)).body("records[0].after", equalTo(8)).body("records[0].drift", equalTo(0));
        assertRecord(8, 1, 0);
        Response again = snapshot(key, asOf, null, count(sku, 10));
        again.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(again.asString()).isEqualTo(applied.asString());

        // a newer count that finds one unit fewer corrects on hand by -1, with its ledger entry and event
        String later = now();
        snapshot(Api.key(), later, null, count(sku, 7)).then().statusCode(200).body("records[0].status", equalTo("applied"))
                .body("records[0].after", equalTo(7)).body("records[0].drift", equalTo(-1));
        assertRecord(7, 1, 0);
        assertThat(db.queryStrings("SELECT kind || ':' || on_hand_delta FROM stock_movements WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1",
                api.tenant())).containsExactly("snapshot:-1");
        assertThat(db.queryStrings("SELECT payload::json -> 'data' ->> 'reason' FROM outbox_events WHERE tenant_id = ? "
                + "AND event_type = 'dev.stockhold.stock.changed.v1' ORDER BY seq DESC LIMIT 1", api.tenant())).containsExactly("snapshot");

        // the first count, sent again under a new key after the newer one: stale, nothing changes
        snapshot(Api.key(), asOf, null, count(sku, 10)).then().statusCode(200).body("records[0].status", equalTo("stale"))
                .body("records[0].after", equalTo(7));
        assertRecord(7, 1, 0);
    }

    /**
     * A set of on hand is a count as of its time: counted 12 at T0, set to 15 at T1, the T0 count arriving afterwards is
     * stale (applied, it made on hand 17: the count plus the set's +3 since T0).
     */
    @Test
    void shouldTreatASetAsACountOfItsTime() {
        String t0 = lastMovementAt();
        api.setOnHand(sku, "WH-1", 15, null).then().statusCode(200);
        snapshot(Api.key(), t0, null, count(sku, 12)).then().statusCode(200).body("records[0].status", equalTo("stale"))
                .body("records[0].after", equalTo(15));
        assertRecord(15, 0, 0);
        // a count as of the set's own time or later is newer: applied
        String t1 = lastMovementAt();
        snapshot(Api.key(), t1, null, count(sku, 14)).then().statusCode(200).body("records[0].status", equalTo("applied"))
                .body("records[0].after", equalTo(14));
        assertRecord(14, 0, 0);
    }

    /**
     * The example with a watermark instead of a time: the movements page read before the count names the ledger's
     * newest entry, and the count sent with it as asOfCursor keeps the fulfilment that came after.
     */
    @Test
    void shouldApplyWhatTheLedgerRecordedAfterTheWatermark() {
        String watermark = api.request().get("/v1/items/{sku}/stock/{location}/movements?limit=1", sku, "WH-1").then().statusCode(200)
                .extract().path("watermark");
        assertThat(watermark).isNotBlank();
        fulfilled(2);

        String key = Api.key();
        Response applied = snapshotWith(key, "\"asOfCursor\":\"" + watermark + "\"", count(sku, 10));
        applied.then().statusCode(200).body("records[0].status", equalTo("applied")).body("records[0].after", equalTo(8));
        assertRecord(8, 0, 0);
        assertThat(snapshotWith(key, "\"asOfCursor\":\"" + watermark + "\"", count(sku, 10)).asString()).isEqualTo(applied.asString());

        // a watermark of another location, a forged one, or both forms at once: 400 and nothing stored
        api.setOnHand(sku, "WH-2", 1, null).then().statusCode(200);
        String elsewhere = api.request().get("/v1/items/{sku}/stock/{location}/movements", sku, "WH-2").then().statusCode(200).extract()
                .path("watermark");
        String refused = Api.key();
        snapshotWith(refused, "\"asOfCursor\":\"" + elsewhere + "\"", count(sku, 1)).then().statusCode(400)
                .body("type", endsWith("/validation-failed"));
        snapshotWith(refused, "\"asOfCursor\":\"AAAA\"", count(sku, 1)).then().statusCode(400);
        snapshotWith(refused, "\"asOf\":\"" + now() + "\",\"asOfCursor\":\"" + watermark + "\"", count(sku, 1)).then().statusCode(400);
        snapshotWith(refused, "\"mode\":\"full\"", count(sku, 1)).then().statusCode(400).body("violations[0].field", equalTo("asOf"));
        assertThat(db.idempotencyRecords(api.tenant(), refused)).isZero();
        assertRecord(8, 0, 0);
    }

    @Test
    void shouldCountUnlistedRecordsAsZeroInAFullCountOnlyWhereNothingIsHeldOrCommitted() {
        String idle = Api.sku();
        String busy = Api.sku();
        api.setOnHand(idle, "WH-1", 5, null).then().statusCode(200);
        api.setOnHand(busy, "WH-1", 5, null).then().statusCode(200);
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + busy + "\",\"quantity\":2,\"location\":\"WH-1\"}]}").then().statusCode(201);

        Response full = snapshot(Api.key(), now(), "full", count(sku, 4));
        full.then().statusCode(200).body("mode", equalTo("full"));
        assertThat(status(full, sku)).isEqualTo("applied");
        assertThat(status(full, idle)).isEqualTo("applied");
        assertThat(status(full, busy)).isEqualTo("kept");
        assertThat(onHand(sku)).isEqualTo(4);
        assertThat(onHand(idle)).isZero();
        assertThat(onHand(busy)).isEqualTo(5);
    }

    @Test
    void shouldSkipACountBelowWhatIsHeld() {
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":3,\"location\":\"WH-1\"}]}").then().statusCode(201);
        snapshot(Api.key(), now(), null, count(sku, 2)).then().statusCode(200).body("records[0].status", equalTo("below-held"))
                .body("records[0].after", equalTo(10));
        assertRecord(10, 3, 0);
    }

    @Test
    void shouldRefuseBadSnapshotsWithNothingStored() {
        String key = Api.key();
        snapshot(key, "yesterday", null, count(sku, 1)).then().statusCode(400).body("violations[0].field", equalTo("asOf"));
        snapshot(key, now(), "all", count(sku, 1)).then().statusCode(400);
        snapshot(key, now(), null, count(sku, 1) + "," + count(sku, 2)).then().statusCode(400)
                .body("violations[0].field", equalTo("records[1].sku"));
        snapshot(key, now(), null, "{\"sku\":\"" + sku + "\",\"onHand\":-1}").then().statusCode(400)
                .body("type", endsWith("/validation-failed"));
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        assertRecord(10, 0, 0);
    }

    /**
     * A fulfilment and a count taken before it, applied at the same moment: whichever commits first, on hand ends at the
     * count minus the fulfilment.
     */
    @Test
    void shouldNeverUndoAFulfilmentRacingTheCount() {
        for (int round = 0; round < 4; round++) {
            api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);
            String id = deferredConfirmed(2);
            String asOf = lastMovementAt();
            List<Integer> statuses = Race.run(2, i -> i == 0
                    ? api.fulfil(Api.key(), id, "[{\"sku\":\"" + sku + "\",\"location\":\"WH-1\",\"quantity\":2}]").statusCode()
                    : snapshot(Api.key(), asOf, null, count(sku, 10)).statusCode());
            assertThat(statuses).containsOnly(200);
            assertThat(onHand(sku)).as("round %d", round).isEqualTo(8);
        }
    }

    /** The same race against a count applied last-writer-wins (on hand := counted): the fulfilment is undone. */
    @Test
    void shouldUndoTheFulfilmentWithALastWriterWinsCount() {
        String id = deferredConfirmed(2);
        api.fulfil(Api.key(), id, "[{\"sku\":\"" + sku + "\",\"location\":\"WH-1\",\"quantity\":2}]").then().statusCode(200);
        api.setOnHand(sku, "WH-1", 10, null).then().statusCode(200);
        assertThat(onHand(sku)).as("the two units that left the shelf are back").isEqualTo(10);
    }

    private String deferredConfirmed(int quantity) {
        String id = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity
                + ",\"location\":\"WH-1\"}],\"fulfilment\":\"deferred\"}").then().statusCode(201).extract().path("id");
        api.confirm(id).then().statusCode(200);
        return id;
    }

    private void fulfilled(int quantity) {
        String id = deferredConfirmed(quantity);
        api.fulfil(Api.key(), id, "[{\"sku\":\"" + sku + "\",\"location\":\"WH-1\",\"quantity\":" + quantity + "}]").then()
                .statusCode(200);
    }

    private String lastMovementAt() {
        return db.queryStrings("SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM stock_movements "
                + "WHERE tenant_id = ? AND sku = ? AND location = 'WH-1' ORDER BY seq DESC LIMIT 1", api.tenant(), sku).get(0);
    }

    private String now() {
        return db.queryStrings("SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')").get(0);
    }

    private static String status(Response answer, String sku) {
        List<String> skus = answer.path("records.sku");
        List<String> statuses = answer.path("records.status");
        return statuses.get(skus.indexOf(sku));
    }

    private long onHand(String of) {
        return db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'WH-1'", api.tenant(), of);
    }

    private void assertRecord(long onHand, long held, long committed) {
        api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1").then().statusCode(200).body("onHand", equalTo((int) onHand))
                .body("held", equalTo((int) held)).body("committed", equalTo((int) committed));
    }

    private Response snapshot(String key, String asOf, String mode, String records) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"asOf\":\"" + asOf + "\"" + (mode == null ? "" : ",\"mode\":\"" + mode + "\"") + ",\"records\":[" + records + "]}")
                .post("/v1/locations/{location}/snapshots", "WH-1");
    }

    private Response snapshotWith(String key, String asOf, String records) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{" + asOf + ",\"records\":[" + records + "]}")
                .post("/v1/locations/{location}/snapshots", "WH-1");
    }

    private static String count(String sku, long onHand) {
        return "{\"sku\":\"" + sku + "\",\"onHand\":" + onHand + "}";
    }
}
