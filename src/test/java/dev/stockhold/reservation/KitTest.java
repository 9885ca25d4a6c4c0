package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
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
 * Kits: a kit line holds its components all or nothing per kit unit, and lines of one request that share a component
 * are summed before the check (Medusa #16502: two lines sharing a component, stock for one, must be refused).
 */
@QuarkusTest
class KitTest extends TenantFixture {

    private final String cup = Api.sku();
    private final String saucer = Api.sku();

    @Test
    void shouldRefuseTwoLinesSharingAComponentWhenThereIsStockForOne() {
        api.setOnHand(cup, "default", 1, null).then().statusCode(200);
        api.setOnHand(saucer, "default", 5, null).then().statusCode(200);
        putKit("SET-" + cup, cup, 1, saucer, 1).then().statusCode(200);
        putKit("PAIR-" + cup, cup, 1, saucer, 2).then().statusCode(200);

        // each line alone would fit (one cup); together they need two
        api.reserve(Api.key(), lines(line("SET-" + cup, 1), line("PAIR-" + cup, 1))).then().statusCode(409)
                .body("type", endsWith("/insufficient-stock"));
        // the same with the kit and its component as separate lines
        api.reserve(Api.key(), lines(line("SET-" + cup, 1), line(cup, 1))).then().statusCode(409);
        assertThat(held(cup)).isZero();
        assertThat(held(saucer)).isZero();

        Response one = api.reserve(Api.key(), lines(line("PAIR-" + cup, 1)));
        one.then().statusCode(201).body("lines[0].sku", is("PAIR-" + cup)).body("lines[0].quantity", is(1))
                .body("lines[0].components.sku", contains(cup, saucer)).body("lines[0].components.quantity", contains(1, 2));
        assertThat(held(cup)).isOne();
        assertThat(held(saucer)).isEqualTo(2);
        api.get(one.path("id")).then().statusCode(200).body("lines[0].components.quantity", contains(1, 2));
        api.cancel(one.path("id")).then().statusCode(200);
        assertThat(held(cup)).isZero();
        assertThat(held(saucer)).isZero();
    }

    @Test
    void shouldHoldAKitWholeAtOneLocationOrSplitByKitUnits() {
        api.setOnHand(cup, "WH-1", 2, null).then().statusCode(200);
        api.setOnHand(saucer, "WH-1", 1, null).then().statusCode(200);
        api.setOnHand(cup, "WH-2", 3, null).then().statusCode(200);
        api.setOnHand(saucer, "WH-2", 3, null).then().statusCode(200);
        putKit("SET-" + cup, cup, 1, saucer, 1).then().statusCode(200);

        // whole: WH-1 covers one set only, WH-2 covers two
        api.reserve(Api.key(), lines(line("SET-" + cup, 2))).then().statusCode(201).body("lines[0].allocations.location", contains("WH-2"));
        // split: one set from WH-1 and one from WH-2, never a cup without its saucer
        api.reserve(Api.key(), "{\"allocation\":\"split\"," + lines(line("SET-" + cup, 2)).substring(1)).then().statusCode(201)
                .body("lines[0].allocations.location", contains("WH-1", "WH-2")).body("lines[0].allocations.quantity", contains(1, 1));
        assertThat(held(cup)).isEqualTo(4);
        assertThat(held(saucer)).isEqualTo(4);
        api.reserve(Api.key(), lines(line("SET-" + cup, 1))).then().statusCode(409);
        // the rest: a cup at WH-1 without a saucer anywhere to pair it
        api.reserve(Api.key(), lines(line(cup, 1))).then().statusCode(201);
    }

    @Test
    void shouldAnswerAKitsAvailabilityAsTheFloorOverItsComponentsAndSettleByKitLine() {
        api.setOnHand(cup, "WH-1", 3, null).then().statusCode(200);
        api.setOnHand(saucer, "WH-1", 5, null).then().statusCode(200);
        putKit("PAIR-" + cup, cup, 1, saucer, 2).then().statusCode(200);

        // 3 cups, 5 saucers: two pairs
        api.request().contentType(ContentType.JSON).body(lines(line("PAIR-" + cup, 2))).post("/v1/availability").then().statusCode(200)
                .body("reservable", is(true)).body("lines[0].available[0].available", is(2))
                .body("lines[0].placement[0].quantity", is(2));
        api.request().contentType(ContentType.JSON).body(lines(line("PAIR-" + cup, 3))).post("/v1/availability").then().statusCode(200)
                .body("reservable", is(false));

        String id = api.reserve(Api.key(), "{\"fulfilment\":\"deferred\"," + lines(line("PAIR-" + cup, 2)).substring(1)).then()
                .statusCode(201).extract().path("id");
        api.confirm(id).then().statusCode(200);
        api.fulfil(Api.key(), id, "[" + line("PAIR-" + cup, 1) + "]").then().statusCode(200);
        // one pair left: a cup and two saucers
        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), cup)).isEqualTo(2);
        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), saucer)).isEqualTo(3);
        api.release(Api.key(), id, "[" + line("PAIR-" + cup, 1) + "]").then().statusCode(200).body("status", is("FULFILLED"));
        assertThat(db.queryLong("SELECT committed FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), saucer)).isZero();
    }

    @Test
    void shouldNeverHoldMoreComponentsThanThereAreUnderConcurrentKitRequests() {
        api.setOnHand(cup, "default", 5, null).then().statusCode(200);
        api.setOnHand(saucer, "default", 7, null).then().statusCode(200);
        putKit("SET-" + cup, cup, 1, saucer, 1).then().statusCode(200);
        putKit("PAIR-" + cup, saucer, 2).then().statusCode(200);

        List<Integer> statuses = Race.run(12, i -> api.reserve(Api.key(), lines(line(i % 2 == 0 ? "SET-" + cup : "PAIR-" + cup, 1)))
                .statusCode());

        assertThat(statuses).isSubsetOf(201, 409);
        assertThat(held(saucer)).isLessThanOrEqualTo(7);
        assertThat(held(cup)).isLessThanOrEqualTo(5);
        assertThat(held(saucer)).isEqualTo(db.queryLong("""
                SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                 WHERE r.tenant_id = ? AND r.status = 'HELD' AND l.sku = ?""", api.tenant(), saucer));
    }

    @Test
    void shouldEditAReservationByKitLineAllOrNothing() {
        api.setOnHand(cup, "WH-1", 3, null).then().statusCode(200);
        api.setOnHand(saucer, "WH-1", 5, null).then().statusCode(200);
        putKit("PAIR-" + cup, cup, 1, saucer, 2).then().statusCode(200);
        String id = api.reserve(Api.key(), lines(line("PAIR-" + cup, 1))).then().statusCode(201).extract().path("id");

        // two pairs and a cup: the kit line grows in kit units, its components with it, the cup shares their record
        edit(id, lines(line("PAIR-" + cup, 2), line(cup, 1))).then().statusCode(200).body("lines[0].sku", is("PAIR-" + cup))
                .body("lines[0].quantity", is(2)).body("lines[0].components.quantity", contains(2, 4))
                .body("lines[1].sku", is(cup)).body("lines[1].quantity", is(1));
        assertThat(held(cup)).isEqualTo(3);
        assertThat(held(saucer)).isEqualTo(4);
        api.get(id).then().statusCode(200).body("lines[0].quantity", is(2)).body("lines[0].components.quantity", contains(2, 4));
        assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1", "dev.stockhold.reservation.updated.v1");
        // the events speak in kit lines too: kit units with the component records that hold them
        assertThat(db.queryStrings("SELECT payload FROM outbox_events WHERE aggregate_id = ?::uuid ORDER BY seq", id))
                .satisfiesExactly(created -> assertThat(created).contains("\"kits\":[{\"sku\":\"PAIR-" + cup + "\",\"quantity\":1,"),
                        updated -> assertThat(updated).contains("\"kits\":[{\"sku\":\"PAIR-" + cup + "\",\"quantity\":2,"));
        db.queryStrings("SELECT payload FROM outbox_events WHERE aggregate_id = ?::uuid", id)
                .forEach(dev.stockhold.support.EventContract::assertConforms);

        // three pairs need 3 cups and 6 saucers, and there are 5: refused whole, nothing moves
        edit(id, lines(line("PAIR-" + cup, 3))).then().statusCode(409).body("type", endsWith("/insufficient-stock"));
        assertThat(held(cup)).isEqualTo(3);
        assertThat(held(saucer)).isEqualTo(4);
        // back to one pair: the rest returns; the kit line settles by kit units as before
        edit(id, lines(line("PAIR-" + cup, 1))).then().statusCode(200).body("lines[0].components.quantity", contains(1, 2));
        assertThat(held(cup)).isOne();
        assertThat(held(saucer)).isEqualTo(2);
    }

    @Test
    void shouldKeepKitsAsWrittenByCompareAndSet() {
        api.setOnHand(cup, "default", 1, null).then().statusCode(200);
        putKit("SET-" + cup, cup, 1, saucer, 1).then().statusCode(200).header("ETag", "\"1\"");
        api.request().contentType(ContentType.JSON).header("If-Match", "\"7\"")
                .body("{\"components\":[{\"sku\":\"" + cup + "\",\"quantity\":2}]}").put("/v1/kits/{sku}", "SET-" + cup).then()
                .statusCode(412);
        api.request().get("/v1/kits/{sku}", "SET-" + cup).then().statusCode(200).body("components.sku", contains(cup, saucer));
        putKit(cup, saucer, 1).then().statusCode(400); // the cup has stock of its own
        putKit("BOX-" + cup, "SET-" + cup, 1).then().statusCode(400); // kits do not nest
        putKit("LOOP-" + cup, "LOOP-" + cup, 1).then().statusCode(400);
        api.request().get("/v1/kits/{sku}", "NONE-" + cup).then().statusCode(404).body("type", endsWith("/kit-not-found"));
    }

    @Test
    void shouldRefuseEveryStockWriteToAKit() {
        api.setOnHand(cup, "default", 1, null).then().statusCode(200);
        putKit("SET-" + cup, cup, 1).then().statusCode(200);

        // a set, an adjustment, a purchase order and a count of the kit: refused, and the kit still has no record
        api.setOnHand("SET-" + cup, "default", 5, null).then().statusCode(400).body("type", endsWith("/validation-failed"));
        api.adjust(Api.key(), "SET-" + cup, "WH-9", 5).then().statusCode(400);
        api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .body("{\"quantity\":3,\"expectedAt\":\"2030-01-01T00:00:00Z\"}")
                .post("/v1/items/{sku}/stock/{location}/incoming", "SET-" + cup, "default").then().statusCode(400);
        api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .body("{\"asOf\":\"2026-01-01T00:00:00Z\",\"records\":[{\"sku\":\"SET-" + cup + "\",\"onHand\":2}]}")
                .post("/v1/locations/{location}/snapshots", "default").then().statusCode(400);
        assertThat(db.queryLong("SELECT count(*) FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), "SET-" + cup)).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM purchase_orders WHERE tenant_id = ?", api.tenant())).isZero();
        api.reserve(Api.key(), lines(line("SET-" + cup, 1))).then().statusCode(201).body("lines[0].components.sku", contains(cup));
    }

    private Response putKit(String kit, Object... components) {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < components.length; i += 2) {
            list.append(i == 0 ? "" : ",").append("{\"sku\":\"").append(components[i]).append("\",\"quantity\":").append(components[i + 1])
                    .append('}');
        }
        return api.request().contentType(ContentType.JSON).body("{\"components\":[" + list + "]}").put("/v1/kits/{sku}", kit);
    }

    private Response edit(String id, String body) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .header("If-Match", api.get(id).header("ETag")).body(body).patch("/v1/reservations/{id}", id);
    }

    private static String line(String sku, int quantity) {
        return "{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}";
    }

    private static String lines(String... lines) {
        return "{\"lines\":[" + String.join(",", lines) + "]}";
    }

    private long held(String sku) {
        return db.queryLong("SELECT coalesce(sum(held), 0) FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku);
    }
}
