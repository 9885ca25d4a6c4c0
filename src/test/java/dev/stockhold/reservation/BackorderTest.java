package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Purchase orders and backorders: lines promised from incoming supply in expected order and never beyond it, allocated
 * on receipt first come first served by reservation time (in the receipt's transaction), repromised when a supply ends
 * short, unpromised when none is left; a waiting hold does not expire.
 */
@QuarkusTest
class BackorderTest extends TenantFixture {

    private static final Instant SOON = Instant.now().plus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
    private static final Instant LATER = SOON.plus(5, ChronoUnit.DAYS);

    @Inject
    ReservationExpiryJob expiry;

    @Test
    void shouldPromiseIncomingSupplyInExpectedOrderAndNeverBeyondIt() {
        api.setOnHand(sku, "WH-1", 2, null).then().statusCode(200);
        expect(Api.key(), "WH-1", 5, LATER).then().statusCode(201).body("status", is("OPEN")).body("expected", is(5));
        expect(Api.key(), "WH-1", 3, SOON).then().statusCode(201);
        api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1").then().statusCode(200).body("incoming", is(8));
        api.request().get("/v1/items/{sku}", sku).then().statusCode(200).body("availableToPromise.quantity",
                org.hamcrest.Matchers.contains(2, 5, 10));

        // the dry run: what the reservation below would be promised, and what could be promised by date
        api.request().contentType(ContentType.JSON)
                .body("{\"backorder\":\"allow\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":6}]}").post("/v1/availability").then()
                .statusCode(200).body("reservable", is(true)).body("lines[0].backordered", is(4))
                .body("lines[0].availableToPromise.quantity", org.hamcrest.Matchers.contains(2, 5, 10));
        // 2 from the shelf, 3 from the earlier order, 1 from the later one: promised at the later date
        Response first = backorder(Api.key(), 6);
        first.then().statusCode(201).body("lines[0].quantity", is(2)).body("lines[0].backordered", is(4))
                .body("lines[0].promisedAt", is(LATER.toString()));
        // the created event names each supply's part: 3 from the earlier order, 1 from the later one
        String created = db.queryStrings("SELECT payload FROM outbox_events WHERE aggregate_id = ?::uuid AND event_type = ?",
                first.<String>path("id"), "dev.stockhold.reservation.created.v1").get(0);
        assertThat(created).contains("\"backordered\":[{\"sku\":\"" + sku + "\",\"quantity\":3,\"location\":\"WH-1\",\"promisedAt\":\""
                + SOON + "\"},{\"sku\":\"" + sku + "\",\"quantity\":1,\"location\":\"WH-1\",\"promisedAt\":\"" + LATER + "\"}]");
        backorder(Api.key(), 5).then().statusCode(409).body("type", endsWith("/insufficient-stock"));
        backorder(Api.key(), 4).then().statusCode(201).body("lines[0].quantity", is(0)).body("lines[0].backordered", is(4));
        backorder(Api.key(), 1).then().statusCode(409);
        api.request().get("/v1/items/{sku}", sku).then().statusCode(200).body("availableToPromise.quantity",
                org.hamcrest.Matchers.contains(0));
        assertThat(db.queryLong("SELECT sum(quantity) FROM promises WHERE tenant_id = ?", api.tenant())).isEqualTo(8);
        // the reservation waits for its supply: it cannot be confirmed yet, and it does not expire
        String id = first.path("id");
        api.confirm(id).then().statusCode(409).body("type", endsWith("/invalid-reservation-state"));
        db.execute("UPDATE reservations SET expires_at = now() - interval '1 minute' WHERE id = ?::uuid", id);
        expiry.expireDue();
        assertThat(db.status(id)).isEqualTo("HELD");
    }

    @Test
    void shouldAllocateOnReceiptInReservationOrderAndStartTheHoldThen() {
        String order = expect(Api.key(), "WH-1", 10, SOON).then().statusCode(201).extract().path("id");
        List<String> ids = new ArrayList<>();
        for (int quantity : new int[]{ 4, 3, 3 }) {
            ids.add(backorder(Api.key(), quantity).then().statusCode(201).extract().path("id"));
        }

        receive(order, Api.key(), 5, false).then().statusCode(200).body("received", is(5)).body("expected", is(5)).body("status",
                is("OPEN"));

        api.get(ids.get(0)).then().statusCode(200).body("lines[0].quantity", is(4)).body("lines[0].backordered", nullValue());
        api.get(ids.get(1)).then().statusCode(200).body("lines[0].quantity", is(1)).body("lines[0].backordered", is(2));
        api.get(ids.get(2)).then().statusCode(200).body("lines[0].quantity", is(0)).body("lines[0].backordered", is(3));
        assertThat(db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(5);
        assertThat(db.queryLong("SELECT on_hand FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku)).isEqualTo(5);
        assertThat(db.eventTypes(ids.get(0))).containsExactly("dev.stockhold.reservation.created.v2",
                "dev.stockhold.reservation.allocated.v1");
        assertThat(db.eventTypes(ids.get(2))).containsExactly("dev.stockhold.reservation.created.v2");
        // allocated in full: its hold runs from the receipt, and it can be confirmed; the others wait
        assertThat(db.queryLong("SELECT count(*) FROM reservations WHERE id = ?::uuid AND awaiting = 0 AND expires_at > now()", ids.get(0)))
                .isOne();
        api.confirm(ids.get(0)).then().statusCode(200).body("status", is("CONFIRMED"));
        api.confirm(ids.get(1)).then().statusCode(409);

        receive(order, Api.key(), 5, false).then().statusCode(200).body("status", is("RECEIVED"));
        api.get(ids.get(2)).then().statusCode(200).body("lines[0].quantity", is(3)).body("lines[0].backordered", nullValue());
        api.request().get("/v1/items/{sku}/stock/{location}/movements", sku, "WH-1").then().statusCode(200)
                .body("items[0].kind", is("purchase-receipt")).body("items[0].purchaseOrderId", is(order));
    }

    @Test
    void shouldRepromiseWhatAShortReceiptLeavesAndLeaveUnpromisedWhatNoSupplyCovers() {
        String early = expect(Api.key(), "WH-1", 5, SOON).then().statusCode(201).extract().path("id");
        String late = expect(Api.key(), "WH-1", 10, LATER).then().statusCode(201).extract().path("id");
        String r1 = backorder(Api.key(), 5).then().statusCode(201).body("lines[0].promisedAt", is(SOON.toString())).extract().path("id");
        String r2 = backorder(Api.key(), 4).then().statusCode(201).body("lines[0].promisedAt", is(LATER.toString())).extract().path("id");

        // 3 of 5 came and the order is closed: r1 gets them, its other 2 move to the later order
        receive(early, Api.key(), 3, true).then().statusCode(200).body("status", is("CLOSED")).body("expected", is(0));
        api.get(r1).then().statusCode(200).body("lines[0].quantity", is(3)).body("lines[0].backordered", is(2))
                .body("lines[0].promisedAt", is(LATER.toString()));
        assertThat(db.eventTypes(r1)).containsExactly("dev.stockhold.reservation.created.v2", "dev.stockhold.reservation.allocated.v1",
                "dev.stockhold.reservation.repromised.v1");
        api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1").then().body("incoming", is(10));

        // the later order brings 1 and closes: r1 (first by reservation time) gets it; the rest has no supply left
        receive(late, Api.key(), 1, true).then().statusCode(200).body("status", is("CLOSED"));
        api.get(r1).then().statusCode(200).body("lines[0].quantity", is(4)).body("lines[0].unpromised", is(1))
                .body("lines[0].backordered", nullValue());
        api.get(r2).then().statusCode(200).body("lines[0].quantity", is(0)).body("lines[0].unpromised", is(4));
        // r2 never held a unit: v1 events have at least one line, so it was created as v2
        assertThat(db.eventTypes(r2)).containsExactly("dev.stockhold.reservation.created.v2", "dev.stockhold.reservation.unpromised.v1");
        // waiting for nothing now: the holds run from the close
        assertThat(db.queryLong("SELECT count(*) FROM reservations WHERE tenant_id = ? AND awaiting = 0", api.tenant())).isEqualTo(2);
        // holding nothing, it has no hold to extend
        api.request().contentType(ContentType.JSON).body("{\"ttlSeconds\":600}").post("/v1/reservations/{id}/extend", r2).then()
                .statusCode(409).body("type", endsWith("/invalid-reservation-state"));
        api.cancel(r2).then().statusCode(200);
        assertThat(db.eventTypes(r2)).endsWith("dev.stockhold.reservation.cancelled.v2");
        // ended, it waits for nothing: neither its answer nor its row say otherwise
        api.get(r2).then().statusCode(200).body("status", is("CANCELLED")).body("lines[0].unpromised", nullValue());
        assertThat(db.queryLong("SELECT awaiting FROM reservations WHERE id = ?::uuid", r2)).isZero();
        // every event of the tenant is valid under its type's schema
        db.queryStrings("SELECT payload FROM outbox_events WHERE tenant_id = ?", api.tenant())
                .forEach(dev.stockhold.support.EventContract::assertConforms);
        assertThat(db.queryLong("SELECT count(*) FROM promises WHERE reservation_id = ?::uuid", r2)).isZero();
        receive(late, Api.key(), 1, false).then().statusCode(409).body("type", endsWith("/invalid-purchase-order-state"));
        receive(early, Api.key(), 1, false).then().statusCode(409);
    }

    @Test
    void shouldServeWaitingLinesInReservationOrderWhenAReceiptRacesNewBackordersAndCancellations() {
        String order = expect(Api.key(), "WH-1", 12, SOON).then().statusCode(201).extract().path("id");
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(backorder(Api.key(), 1).then().statusCode(201).extract().path("id"));
        }

        // at once: a receipt of 5, six new backorders (4 units of supply left), and cancels of the 2nd and 5th
        List<Integer> statuses = Race.run(9, i -> switch (i) {
            case 0 -> receive(order, Api.key(), 5, false).statusCode();
            case 1 -> api.cancel(waiting.get(1)).statusCode();
            case 2 -> api.cancel(waiting.get(4)).statusCode();
            default -> backorder(Api.key(), 1).statusCode();
        });

        assertThat(statuses.subList(0, 3)).containsOnly(200);
        assertThat(statuses.subList(3, 9)).isSubsetOf(201, 409);
        // never promised beyond the order: what arrived plus what is still promised fits in it
        assertThat(db.queryLong("SELECT received FROM purchase_orders WHERE id = ?::uuid", order)
                + db.queryLong("SELECT coalesce(sum(quantity), 0) FROM promises WHERE supply_id = ?::uuid", order)).isLessThanOrEqualTo(12);
        // first come, first served: no reservation that still waits is older than one that was served
        assertThat(db.queryLong("""
                SELECT count(*) FROM reservations served, reservations skipped
                 WHERE served.tenant_id = ? AND skipped.tenant_id = served.tenant_id
                   AND served.status = 'HELD' AND served.awaiting = 0 AND served.backorder_ttl IS NOT NULL
                   AND skipped.status = 'HELD' AND skipped.awaiting > 0 AND skipped.created_at < served.created_at""", api.tenant()))
                .as("served out of reservation order").isZero();
        assertThat(db.queryLong("SELECT count(DISTINCT aggregate_id) FROM outbox_events WHERE tenant_id = ? AND event_type = ?",
                api.tenant(), "dev.stockhold.reservation.allocated.v1")).as("reservations the 5 units went to").isEqualTo(5);
        // held is exactly what the HELD reservations hold (I2)
        assertThat(db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku))
                .isEqualTo(db.queryLong("""
                        SELECT coalesce(sum(l.quantity), 0) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
                         WHERE r.tenant_id = ? AND r.status = 'HELD'""", api.tenant()));
    }

    @Test
    void shouldNeverPromiseASupplyTwiceToBackordersThatRaceForIt() {
        String order = expect(Api.key(), "WH-1", 3, SOON).then().statusCode(201).extract().path("id");

        // twelve backorders of one unit at once against an order of three: each waits on the order's lock, and must then
        // see the promises made while it waited
        List<Integer> statuses = Race.run(12, i -> backorder(Api.key(), 1).statusCode());

        assertThat(statuses).containsOnly(201, 409);
        assertThat(db.queryLong("SELECT coalesce(sum(quantity), 0) FROM promises WHERE supply_id = ?::uuid", order))
                .as("units promised from an order of 3").isEqualTo(3);
        assertThat(statuses.stream().filter(s -> s == 201).count()).isEqualTo(3);
    }

    private Response expect(String key, String location, int quantity, Instant at) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"quantity\":" + quantity + ",\"expectedAt\":\"" + at + "\",\"reference\":\"PO-1\"}")
                .post("/v1/items/{sku}/stock/{location}/incoming", sku, location);
    }

    private Response receive(String order, String key, int quantity, boolean close) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", key)
                .body("{\"quantity\":" + quantity + ",\"close\":" + close + "}").post("/v1/purchase-orders/{id}/receipts", order);
    }

    private Response backorder(String key, int quantity) {
        return api.reserve(key, "{\"backorder\":\"allow\",\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]}");
    }
}
