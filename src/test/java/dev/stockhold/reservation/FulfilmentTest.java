package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Race;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * Deferred fulfilment: confirm commits, fulfilments take committed units off on hand, releases make them available, and
 * neither can take more than was committed, whatever the order or the concurrency (I1 with committed).
 */
@QuarkusTest
@StockedSku(10)
class FulfilmentTest extends TenantFixture {

    private static final String PREFIX = "dev.stockhold.reservation.";

    @Test
    void shouldCommitOnConfirmThenFulfilAndReleaseAsTheExampleSays() {
        String id = deferred(5);
        api.confirm(id).then().statusCode(200).body("status", equalTo("CONFIRMED")).body("fulfilment", equalTo("deferred"))
                .body("lines[0].fulfilled", equalTo(0)).body("lines[0].released", equalTo(0));
        assertRecord(10, 0, 5, 5);

        api.fulfil(Api.key(), id, Api.line(sku, 3)).then().statusCode(200).body("status", equalTo("PARTIALLY_FULFILLED"))
                .body("lines[0].fulfilled", equalTo(3));
        assertRecord(7, 0, 2, 5);

        api.fulfil(Api.key(), id, Api.line(sku, 3)).then().statusCode(409).body("type", endsWith("/over-fulfilment"));
        assertRecord(7, 0, 2, 5);

        api.release(Api.key(), id, Api.line(sku, 2)).then().statusCode(200).body("status", equalTo("FULFILLED"))
                .body("lines[0].fulfilled", equalTo(3)).body("lines[0].released", equalTo(2));
        assertRecord(7, 0, 0, 7);

        api.get(id).then().body("status", equalTo("FULFILLED")).body("lines[0].released", equalTo(2));
        assertThat(db.eventTypes(id)).containsExactly(PREFIX + "created.v1", PREFIX + "confirmed.v1", PREFIX + "fulfilled.v1",
                PREFIX + "released.v1");
        assertThat(db.queryStrings("SELECT payload::json -> 'data' ->> 'kind' FROM outbox_events WHERE tenant_id = ? "
                + "AND event_type = 'dev.stockhold.stock.changed.v1' ORDER BY seq", api.tenant())).endsWith("fulfil");
        // I2: the database counted the fulfilled units as sold, not the confirm
        assertThat(db.queryLong("SELECT received - sold FROM stock_records WHERE tenant_id = ? AND sku = ?", api.tenant(), sku))
                .isEqualTo(7);
    }

    @Test
    void shouldKeepTheConfirmThatSellsForARequestWithoutTheField() {
        String id = api.reserve(Api.key(), sku, 4).then().statusCode(201).body("fulfilment", nullValue()).extract().path("id");
        api.confirm(id).then().statusCode(200).body("lines[0].fulfilled", nullValue()).body("fulfilment", nullValue());
        assertRecord(6, 0, 0, 6);

        api.fulfil(Api.key(), id, Api.line(sku, 1)).then().statusCode(409).body("type", endsWith("/invalid-reservation-state"));
        assertRecord(6, 0, 0, 6);
    }

    @Test
    void shouldRefuseAHeldReservationAndNotStoreAMissingOne() {
        String id = deferred(2);
        api.fulfil(Api.key(), id, Api.line(sku, 1)).then().statusCode(409).body("type", endsWith("/invalid-reservation-state"));

        String key = Api.key();
        api.fulfil(key, "00000000-0000-4000-8000-000000000000", Api.line(sku, 1)).then().statusCode(404);
        assertThat(db.idempotencyRecords(api.tenant(), key)).isZero();
        assertRecord(10, 2, 0, 8);
    }

    @Test
    void shouldReplayAFulfilmentOnceAndRefuseTheKeyForAnotherBody() {
        String id = deferred(5);
        api.confirm(id).then().statusCode(200);
        String key = Api.key();
        String first = api.fulfil(key, id, Api.line(sku, 2)).then().statusCode(200).extract().asString();
        Response again = api.fulfil(key, id, Api.line(sku, 2));
        again.then().statusCode(200).header("Idempotent-Replayed", "true");
        assertThat(again.asString()).isEqualTo(first);
        assertRecord(8, 0, 3, 5);

        api.fulfil(key, id, Api.line(sku, 1)).then().statusCode(422).body("type", endsWith("/idempotency-key-reused"));
        api.release(key, id, Api.line(sku, 2)).then().statusCode(422);

        // a refusal is stored too: the same key answers the same 409 after the units are there again
        String refused = Api.key();
        api.fulfil(refused, id, Api.line(sku, 4)).then().statusCode(409);
        api.fulfil(refused, id, Api.line(sku, 4)).then().statusCode(409).header("Idempotent-Replayed", "true");
        assertThat(db.eventTypes(id)).containsExactly(PREFIX + "created.v1", PREFIX + "confirmed.v1", PREFIX + "fulfilled.v1");
    }

    @Test
    void shouldRefuseBadBodiesWithNothingStored() {
        String key = Api.key();
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"fulfilment\":\"later\"}").then().statusCode(400)
                .body("type", endsWith("/validation-failed"));
        String id = deferred(2);
        api.confirm(id).then().statusCode(200);
        api.fulfil(key, id, "[]").then().statusCode(400).body("type", endsWith("/validation-failed"));
        api.fulfil(key, id, "[{\"sku\":\"" + sku + "\",\"quantity\":0}]").then().statusCode(400);
        api.fulfil(key, id, "[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"" + sku + "\",\"quantity\":1}]").then()
                .statusCode(400);
        api.fulfil(key, id, Api.line("OTHER-SKU", 1)).then().statusCode(409).body("type", endsWith("/over-fulfilment"));
        assertRecord(10, 0, 2, 8);
    }

    @Test
    void shouldPutTheFieldInTheFingerprintOnlyWhenPresent() {
        String key = Api.key();
        api.reserve(key, sku, 1).then().statusCode(201);
        api.reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}],\"fulfilment\":\"deferred\"}").then().statusCode(422);
        api.reserve(key, sku, 1).then().statusCode(201).header("Idempotent-Replayed", "true");
    }

    /**
     * Fulfilments and releases of one unit each, all at once, on a reservation with 10 committed: exactly 10 succeed,
     * the rest are over-fulfilment, and the record, the lines and the events agree.
     */
    @Test
    void shouldNeverSettleMoreThanWasCommittedUnderConcurrentFulfilmentsAndReleases() {
        String id = deferred(10);
        api.confirm(id).then().statusCode(200);
        int racers = 16;
        List<Integer> statuses = Race.run(racers, i -> (i % 2 == 0 ? api.fulfil(Api.key(), id, Api.line(sku, 1))
                : api.release(Api.key(), id, Api.line(sku, 1))).statusCode());

        assertThat(statuses).containsOnly(200, 409);
        assertThat(statuses.stream().filter(s -> s == 200)).hasSize(10);
        long fulfilled = db.queryLong("SELECT fulfilled FROM reservation_lines WHERE reservation_id = ?::uuid", id);
        long released = db.queryLong("SELECT released FROM reservation_lines WHERE reservation_id = ?::uuid", id);
        assertThat(fulfilled + released).isEqualTo(10);
        assertRecord(10 - fulfilled, 0, 0, 10 - fulfilled);
        assertThat(db.eventTypes(id).stream().filter(t -> t.endsWith("fulfilled.v1") || t.endsWith("released.v1"))).hasSize(10);
        assertThat(db.status(id)).isEqualTo("FULFILLED");
    }

    /**
     * The same race against a fulfilment that reads the line's committed units, decides in Java and writes the computed
     * totals: every racer believes it fulfilled a unit and the lines record fewer than that.
     */
    @Test
    void shouldLoseUnitsWithANaiveReadThenWriteFulfilment() throws Exception {
        String id = deferred(10);
        api.confirm(id).then().statusCode(200);
        int racers = 4;
        CyclicBarrier allHaveRead = new CyclicBarrier(racers);
        List<Boolean> believed = Race.run(racers, i -> naiveFulfilOne(id, allHaveRead));

        long recorded = db.queryLong("SELECT fulfilled FROM reservation_lines WHERE reservation_id = ?::uuid", id);
        assertThat(believed).containsOnly(true);
        assertThat(recorded).as("lost updates: %d racers fulfilled a unit each", racers).isLessThan(racers);
    }

    private boolean naiveFulfilOne(String id, CyclicBarrier allHaveRead) {
        try (Connection c = dataSource.getConnection()) {
            int fulfilled;
            try (PreparedStatement read = c.prepareStatement("SELECT fulfilled FROM reservation_lines WHERE reservation_id = ?::uuid")) {
                read.setString(1, id);
                try (ResultSet rs = read.executeQuery()) {
                    rs.next();
                    fulfilled = rs.getInt(1);
                }
            }
            allHaveRead.await(30, TimeUnit.SECONDS);
            try (PreparedStatement write = c
                    .prepareStatement("UPDATE reservation_lines SET fulfilled = ? WHERE reservation_id = ?::uuid")) {
                write.setInt(1, fulfilled + 1);
                write.setString(2, id);
                write.executeUpdate();
            }
            return true;
        } catch (SQLException | InterruptedException | java.util.concurrent.BrokenBarrierException
                | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    private String deferred(int quantity) {
        return api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}],\"fulfilment\":\"deferred\"}")
                .then().statusCode(201).body("fulfilment", equalTo("deferred")).extract().path("id");
    }

    private void assertRecord(long onHand, long held, long committed, long available) {
        api.request().get("/v1/items/{sku}/stock/default", sku).then().statusCode(200).body("onHand", equalTo((int) onHand))
                .body("held", equalTo((int) held)).body("committed", equalTo((int) committed)).body("available", equalTo((int) available));
    }
}
