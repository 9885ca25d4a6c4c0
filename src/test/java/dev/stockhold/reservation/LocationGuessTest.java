package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.inventory.Allocation;
import dev.stockhold.inventory.StockKey;
import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * A line without a location placed without the allocation read ({@link LocationGuesses}) lands where the read would
 * have placed it: on its sku's first record in allocation order as the records are now, not as this replica last read
 * them.
 */
@QuarkusTest
class LocationGuessTest extends TenantFixture {

    @Inject
    LocationGuesses guesses;

    @BeforeEach
    void setUp() {
        // allocation order: WH-1 (priority 1), then WH-2 (priority 2)
        api.putLocation("WH-1", 1);
        api.putLocation("WH-2", 2);
        onHand(sku, "WH-1", 10);
        onHand(sku, "WH-2", 10);
    }

    @Test
    void shouldPlaceAGuessedLineByTheAllocationOrderOfNow() {
        api.reserve(Api.key(), sku, 1).then().statusCode(201).body("lines[0].location", equalTo("WH-1"));
        assertThat(guess(sku)).as("the next request of the sku is placed without a read").isEqualTo("WH-1");

        api.putLocation("WH-2", 0);
        double misses = misses();
        Response second = api.reserve(Api.key(), sku, 1);
        second.then().statusCode(201).body("lines[0].location", equalTo("WH-2"));
        assertThat(misses()).as("the stale guess counted").isEqualTo(misses + 1);
        assertThat(held(sku, "WH-1")).isEqualTo(1);
        assertThat(held(sku, "WH-2")).isEqualTo(1);
        assertThat(api.get(second.path("id")).then().statusCode(200).extract().asString()).isEqualTo(second.asString());
        assertThat(guess(sku)).as("learned from the read after the wrong guess").isEqualTo("WH-2");
    }

    @Test
    void shouldTakeTheNextRecordWhenTheGuessedOneIsShort() {
        api.reserve(Api.key(), sku, 1).then().statusCode(201).body("lines[0].location", equalTo("WH-1"));
        onHand(sku, "WH-1", 2);

        api.reserve(Api.key(), sku, 5).then().statusCode(201).body("lines[0].location", equalTo("WH-2"));
        assertThat(held(sku, "WH-1")).isEqualTo(1);
        assertThat(held(sku, "WH-2")).isEqualTo(5);
    }

    @Test
    void shouldStopGuessingTheTenantsLocationForUnreadSkusOnceItWasWrong() {
        String elsewhere = Api.sku();
        String unread = Api.sku();
        onHand(elsewhere, "WH-2", 3);
        onHand(unread, "WH-1", 3);
        api.reserve(Api.key(), sku, 1).then().statusCode(201);
        assertThat(guess(elsewhere)).as("an unread sku: the tenant's location").isEqualTo("WH-1");

        api.reserve(Api.key(), elsewhere, 1).then().statusCode(201).body("lines[0].location", equalTo("WH-2"));
        assertThat(held(elsewhere, "WH-2")).isEqualTo(1);
        assertThat(guess(unread)).as("not guessed after the tenant's guess was wrong").isNull();
        assertThat(guess(elsewhere)).isEqualTo("WH-2");
        api.reserve(Api.key(), unread, 1).then().statusCode(201).body("lines[0].location", equalTo("WH-1"));
    }

    @Test
    void shouldRefuseAnUnknownSkuAfterAGuessAsAfterARead() {
        api.reserve(Api.key(), sku, 1).then().statusCode(201);
        String unknown = Api.sku();
        String key = Api.key();
        api.reserve(key, unknown, 1).then().statusCode(422);
        api.reserve(key, unknown, 1).then().statusCode(422).header("Idempotent-Replayed", "true");
        assertThat(db.reservationsOfTenant(api.tenant())).isEqualTo(1);
    }

    /** Where the next request's one line of {@code sku} would be placed without a read; null: it is read first. */
    private String guess(String sku) {
        Allocation.Placed placed = guesses.placed(api.tenant(), List.of(new Allocation.Line(sku, null, 1)));
        return placed == null ? null : placed.keys().stream().map(StockKey::location).findFirst().orElseThrow();
    }

    /** stockhold_reservation_location_guesses_total{outcome="miss"}, as the management port serves it. */
    private static double misses() {
        return dev.stockhold.support.Management.given().get("/q/metrics").then().statusCode(200).extract().asString()
                .lines().filter(l -> l.startsWith("stockhold_reservation_location_guesses_total{") && l.contains("outcome=\"miss\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private void onHand(String sku, String location, long onHand) {
        api.setOnHand(sku, location, onHand, null).then().statusCode(200);
    }

    private long held(String sku, String location) {
        return db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = ?", api.tenant(), sku,
                location);
    }
}
