package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** The stock API (docs/api.md, "Stock"): sets, compare-and-set, adjustments, and their races with reservations (I1, I2, I7). */
@QuarkusTest
class StockApiTest extends TenantFixture {

    static final int RACERS = 16;

    @Test
    void shouldSetOnHandAndAnswerTheRecordWithItsVersionAsETag() {
        String sku = Api.sku();
        Response first = api.setOnHand(sku, "WH-1", 40, null);
        first.then().statusCode(200).header("ETag", "\"1\"");
        assertThat(first.<Integer>path("onHand")).isEqualTo(40);
        assertThat(first.<Integer>path("available")).isEqualTo(40);
        api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":3,\"location\":\"WH-1\"}]}").then().statusCode(201);

        Response read = api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1");
        read.then().statusCode(200).header("ETag", "\"1\""); // reservations do not move the version
        assertThat(read.<Integer>path("held")).isEqualTo(3);
        assertThat(read.<Integer>path("available")).isEqualTo(37);

        Response item = api.request().get("/v1/items/{sku}", sku);
        item.then().statusCode(200);
        assertThat(item.<Integer>path("onHand")).isEqualTo(40);
        assertThat(item.<Integer>path("available")).isEqualTo(37);
        assertThat(item.<List<String>>path("locations.location")).containsExactly("WH-1");
        assertThat(api.request().get("/v1/locations").<List<String>>path("items.location")).containsExactly("WH-1", "default");

        api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-9").then().statusCode(404)
                .body("type", org.hamcrest.Matchers.endsWith("/item-not-found"));
        Api.newTenant().request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1").then().statusCode(404);
    }

    @Test
    void shouldRefuseToSetOnHandBelowHeldAndChangeNothing() {
        String sku = Api.sku();
        api.setStock(sku, 10);
        api.reserve(Api.key(), sku, 6).then().statusCode(201);

        api.setOnHand(sku, "default", 5, null).then().statusCode(409)
                .body("type", org.hamcrest.Matchers.endsWith("/stock-below-held"));

        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(10);
        assertThat(api.setOnHand(sku, "default", 6, null).<Integer>path("available")).isZero();
    }

    /**
     * I7: an admin's absolute set races reservations of the same record and loses none of them: held is what the
     * committed reservations hold. The same race with a whole-row read-then-write (the v1 overwrite) loses them.
     */
    @Test
    void shouldNotLoseReservationsToAnAdminSetRacingThem() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "default", 1_000, null).then().statusCode(200);

        List<Integer> statuses = Race.run(RACERS + 1, i -> i == RACERS
                ? api.setOnHand(sku, "default", 500, null).statusCode()
                : api.reserve(Api.key(), sku, 7).statusCode());

        assertThat(statuses).containsOnly(200, 201);
        assertConserved(sku, 500, 7L * RACERS);
    }

    @Test
    void shouldCatchTheLostUpdateOfAWholeRowReadThenWrite() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "default", 1_000, null).then().statusCode(200);
        CountDownLatch read = new CountDownLatch(1);
        CountDownLatch reserved = new CountDownLatch(1);
        Thread admin = new Thread(() -> naiveSet(sku, 500, read, reserved));
        admin.start();
        assertThat(read.await(10, TimeUnit.SECONDS)).isTrue();
        List<Integer> statuses = Race.run(RACERS, i -> api.reserve(Api.key(), sku, 7).statusCode());
        reserved.countDown();
        admin.join(10_000);

        assertThat(statuses).containsOnly(201);
        long held = db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku);
        assertThat(held).as("the overwrite put back the held value it read before the reservations").isZero();
        assertThat(heldLines(sku)).isEqualTo(7L * RACERS); // so the detector of the test above would fail
        // the row is broken on purpose: its reservations go, or the expiry job would release units the record lost
        db.execute("DELETE FROM reservations WHERE tenant_id = ?", api.tenant());
    }

    /** Two admins set with the same version: exactly one wins, the other gets 412 and changes nothing. */
    @Test
    void shouldLetExactlyOneOfTwoCompareAndSetsWithTheSameVersionWin() {
        String sku = Api.sku();
        String etag = api.setOnHand(sku, "WH-1", 10, null).header("ETag");

        List<Response> answers = Race.run(8, i -> api.setOnHand(sku, "WH-1", 100 + i, etag));

        assertThat(answers).filteredOn(r -> r.statusCode() == 200).hasSize(1);
        assertThat(answers).filteredOn(r -> r.statusCode() == 412)
                .hasSize(7).allMatch(r -> r.path("type").toString().endsWith("/precondition-failed"));
        int winner = answers.stream().filter(r -> r.statusCode() == 200).findFirst().orElseThrow().path("onHand");
        Response now = api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1");
        assertThat(now.<Integer>path("onHand")).isEqualTo(winner);
        now.then().header("ETag", "\"2\"");
        assertThat(db.queryLong("SELECT count(*) FROM outbox_events WHERE tenant_id = ? AND event_type = 'dev.stockhold.stock.changed.v1'",
                api.tenant())).isEqualTo(2);
        api.setOnHand(sku, "WH-2", 5, "\"1\"").then().statusCode(412); // no such record: nothing to match
        api.setOnHand(sku, "WH-1", 5, "garbage").then().statusCode(400).body("violations[0].field",
                org.hamcrest.Matchers.equalTo("If-Match"));
        api.setOnHand(sku, "WH-1", 5, "*").then().statusCode(200).header("ETag", "\"3\"");
    }

    /** Adjustments racing each other and reservations: every applied delta counted once, on hand never below held. */
    @Test
    void shouldApplyEveryRacingAdjustmentOnceAndNeverBelowHeld() throws Exception {
        String sku = Api.sku();
        api.setOnHand(sku, "default", 60, null).then().statusCode(200);

        List<Response> answers = Race.run(RACERS * 2, i -> switch (i % 3) {
            case 0 -> api.adjust(Api.key(), sku, "default", 5);
            case 1 -> api.adjust(Api.key(), sku, "default", -9);
            default -> api.reserve(Api.key(), sku, 4);
        });

        assertThat(answers).allMatch(r -> List.of(200, 201, 409).contains(r.statusCode()));
        long deltas = 0;
        for (int i = 0; i < answers.size(); i++) {
            Response answer = answers.get(i);
            if (answer.statusCode() == 200) {
                deltas += i % 3 == 0 ? 5 : -9;
            } else if (answer.statusCode() == 409) {
                assertThat(answer.<String>path("type")).endsWith(i % 3 == 2 ? "/insufficient-stock" : "/stock-below-held");
            }
        }
        assertThat(deltas).as("some adjustments applied").isNotZero();
        long reserved = answers.stream().filter(r -> r.statusCode() == 201).count() * 4;
        assertConserved(sku, 60 + deltas, reserved);
        assertThat(db.queryLong("SELECT received FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku))
                .isEqualTo(60 + deltas);
    }

    @Test
    void shouldReplayAnAdjustmentByItsKeyAndRefuseTheKeyElsewhere() {
        String sku = Api.sku();
        api.setOnHand(sku, "default", 10, null);
        String key = Api.key();
        Response first = api.adjust(key, sku, "default", -3);
        first.then().statusCode(200).header("Idempotent-Replayed", org.hamcrest.Matchers.nullValue());
        Response again = api.adjust(key, sku, "default", -3);
        again.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(again.asString()).isEqualTo(first.asString());
        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(7);

        String refused = Api.key();
        api.reserve(Api.key(), sku, 7).then().statusCode(201);
        api.adjust(refused, sku, "default", -1).then().statusCode(409).body("type", org.hamcrest.Matchers.endsWith("/stock-below-held"));
        api.cancel(db.queryStrings("SELECT id::text FROM reservations WHERE tenant_id = ?", api.tenant()).get(0)).then().statusCode(200);
        api.adjust(refused, sku, "default", -1).then().statusCode(409).header("Idempotent-Replayed", "true");
        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(7);

        api.adjust(key, sku, "default", -4).then().statusCode(422).body("type", org.hamcrest.Matchers.endsWith("/idempotency-key-reused"));
        api.reserve(key, sku, 1).then().statusCode(422).body("type", org.hamcrest.Matchers.endsWith("/idempotency-key-reused"));
        api.request().contentType(ContentType.JSON).body("{\"delta\":1}")
                .post("/v1/items/{sku}/stock/{location}/adjustments", sku, "default").then().statusCode(400)
                .body("type", org.hamcrest.Matchers.endsWith("/idempotency-key-missing"));
        for (String bad : List.of("{\"delta\":0}", "{\"delta\":\"3\"}", "{\"delta\":1.5}", "{\"delta\":1000000001}",
                "{\"delta\":1,\"reason\":\"\"}")) {
            api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key()).body(bad)
                    .post("/v1/items/{sku}/stock/{location}/adjustments", sku, "default").then().statusCode(400);
        }
        assertThat(db.queryLong("SELECT version FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(2);
    }

    @Test
    void shouldCreateARecordAtZeroForAnAdjustmentOfAnUnknownOne() {
        String sku = Api.sku();
        Response created = api.adjust(Api.key(), sku, "WH-7", 12);
        created.then().statusCode(200);
        assertThat(created.<Integer>path("onHand")).isEqualTo(12);
        assertThat(created.<Integer>path("version")).isEqualTo(1);
        api.adjust(Api.key(), Api.sku(), "WH-7", -1).then().statusCode(409);
        assertThat(db.queryLong("SELECT count(*) FROM stock_records WHERE tenant_id = ?", api.tenant())).isEqualTo(1);
    }

    @Test
    void shouldListRecordsBySkuThenLocationWithFiltersAndCursors() {
        for (int i = 0; i < 7; i++) {
            api.setOnHand("L-" + i, "A", i, null).then().statusCode(200);
            api.setOnHand("L-" + i, "B", 10 + i, null).then().statusCode(200);
        }
        List<String> seen = new java.util.ArrayList<>();
        String cursor = null;
        do {
            var spec = api.request().queryParam("limit", 3);
            if (cursor != null) {
                spec = spec.queryParam("cursor", cursor);
            }
            Response page = spec.get("/v1/items");
            page.then().statusCode(200);
            List<String> skus = page.path("items.sku");
            List<String> locations = page.path("items.location");
            for (int i = 0; i < skus.size(); i++) {
                seen.add(skus.get(i) + "@" + locations.get(i));
            }
            cursor = page.path("nextCursor");
        } while (cursor != null);
        assertThat(seen).hasSize(14).isSorted().doesNotHaveDuplicates();

        Response low = api.request().queryParam("location", "A").queryParam("availableBelow", 3).get("/v1/items");
        assertThat(low.<List<String>>path("items.sku")).containsExactly("L-0", "L-1", "L-2");
        String next = api.request().queryParam("limit", 1).get("/v1/items").path("nextCursor");
        api.request().queryParam("location", "B").queryParam("cursor", next).get("/v1/items").then().statusCode(400)
                .body("violations[0].field", org.hamcrest.Matchers.equalTo("cursor"));
        Api.newTenant().request().queryParam("cursor", next).get("/v1/items").then().statusCode(400);
        api.request().queryParam("availableBelow", "x").get("/v1/items").then().statusCode(400);

        // only the skus asked for, paged the same way; a cursor stays bound to them
        Response some = api.request().queryParam("sku", "L-5", "L-1", "L-9").queryParam("limit", 3).get("/v1/items");
        assertThat(some.<List<String>>path("items.sku")).containsExactly("L-1", "L-1", "L-5");
        String more = some.path("nextCursor");
        assertThat(api.request().queryParam("sku", "L-5", "L-1", "L-9").queryParam("cursor", more).get("/v1/items")
                .<List<String>>path("items.location")).containsExactly("B");
        api.request().queryParam("sku", "L-1").queryParam("cursor", more).get("/v1/items").then().statusCode(400);
        api.request().queryParam("sku", "bad sku").get("/v1/items").then().statusCode(400)
                .body("violations[0].field", org.hamcrest.Matchers.equalTo("sku"));
        api.request().queryParam("sku", java.util.stream.IntStream.range(0, 101).mapToObj(i -> "S-" + i).toList()).get("/v1/items").then()
                .statusCode(400);
    }

    private void assertConserved(String sku, long onHand, long held) {
        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(onHand);
        assertThat(db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku))
                .as("held = the committed HELD reservations (I2)").isEqualTo(held).isEqualTo(heldLines(sku));
        assertThat(db.available(api.tenant(), sku)).isEqualTo(onHand - held);
    }

    private long heldLines(String sku) {
        return db.queryLong("""
                SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                 WHERE r.tenant_id = ? AND l.sku = ? AND r.status = 'HELD'
                """, api.tenant(), sku);
    }

    /** Test code only: how an ORM-style admin write loses updates: read the whole row, wait, write it all back. */
    private void naiveSet(String sku, long onHand, CountDownLatch read, CountDownLatch reserved) {
        try (Connection c = dataSource.getConnection()) {
            long held;
            try (PreparedStatement ps = c.prepareStatement("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ?")) {
                ps.setString(1, api.tenant());
                ps.setString(2, sku);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    held = rs.getLong(1);
                }
            }
            read.countDown();
            reserved.await(30, TimeUnit.SECONDS);
            try (PreparedStatement ps = c
                    .prepareStatement("UPDATE stock_records SET on_hand = ?, held = ? WHERE tenant_id = ? AND sku = ?")) {
                ps.setLong(1, onHand);
                ps.setLong(2, held);
                ps.setString(3, api.tenant());
                ps.setString(4, sku);
                ps.executeUpdate();
            }
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
