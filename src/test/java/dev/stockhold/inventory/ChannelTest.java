package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import dev.stockhold.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Channels: reservations, availability and stock reads that name a channel use only its locations, in its order; an
 * unknown channel is 422 (stored against the key like every refusal); the channel itself is written by compare-and-set.
 */
@QuarkusTest
class ChannelTest extends TenantFixture {

    @Test
    void shouldAllocateOnlyFromTheChannelsLocationsInTheChannelsOrder() {
        stockAt(5, "WH-1", "WH-2", "WH-3");
        putChannel("b2b", null, "WH-3", "WH-1").then().statusCode(200);

        // without the channel, location priority (then name) picks WH-1; through it, WH-3 comes first
        Response first = api.reserve(Api.key(), body("b2b", null, 4));
        String id = first.path("id");
        first.then().statusCode(201).body("channel", is("b2b")).body("lines[0].location", is("WH-3"));
        // whole: no single channel location has 6 left (WH-3 1, WH-1 5) although WH-2, outside the channel, has 5
        api.reserve(Api.key(), body("b2b", null, 6)).then().statusCode(409).body("type", endsWith("/insufficient-stock"));
        api.reserve(Api.key(), body("b2b", "split", 6)).then().statusCode(201)
                .body("lines[0].allocations.location", contains("WH-3", "WH-1"))
                .body("lines[0].allocations.quantity", contains(1, 5));

        assertThat(held("WH-1")).isEqualTo(5);
        assertThat(held("WH-2")).isZero();
        assertThat(held("WH-3")).isEqualTo(5);
        assertThat(db.queryStrings("SELECT payload FROM outbox_events WHERE aggregate_id = ?::uuid AND event_type = ?",
                id, "dev.stockhold.reservation.created.v1").get(0)).contains("\"channel\":\"b2b\"");
        assertThat(db.queryStrings("SELECT channel FROM reservations WHERE id = ?::uuid", id)).containsExactly("b2b");
        api.get(id).then().statusCode(200).body("channel", is("b2b"));
    }

    @Test
    void shouldAnswerAvailabilityAndStockThroughTheChannel() {
        stockAt(5, "WH-1", "WH-2", "WH-3");
        putChannel("b2c", null, "WH-2", "WH-3").then().statusCode(200);

        api.request().contentType(ContentType.JSON).body(body("b2c", null, 2)).post("/v1/availability").then().statusCode(200)
                .body("channel", is("b2c")).body("lines[0].available.location", contains("WH-2", "WH-3"))
                .body("lines[0].placement[0].location", is("WH-2"));
        api.request().contentType(ContentType.JSON).body(body("b2c", null, 11)).post("/v1/availability").then().statusCode(200)
                .body("reservable", is(false));
        api.request().queryParam("channel", "b2c").get("/v1/items/{sku}", sku).then().statusCode(200).body("channel", is("b2c"))
                .body("onHand", is(10)).body("locations.location", contains("WH-2", "WH-3"));
        api.request().get("/v1/items/{sku}", sku).then().statusCode(200).body("channel", nullValue()).body("onHand", is(15));
        api.request().queryParam("channel", "b2c").queryParam("sku", sku).get("/v1/items").then().statusCode(200)
                .body("items.location", contains("WH-2", "WH-3"));
        // one record per page: the cursor follows the channel and is bound to it
        String cursor = api.request().queryParam("channel", "b2c").queryParam("limit", 1).get("/v1/items").then().statusCode(200)
                .body("items.location", contains("WH-2")).extract().path("nextCursor");
        api.request().queryParam("channel", "b2c").queryParam("limit", 1).queryParam("cursor", cursor).get("/v1/items").then()
                .statusCode(200).body("items.location", contains("WH-3"));
        api.request().queryParam("limit", 1).queryParam("cursor", cursor).get("/v1/items").then().statusCode(400);
    }

    @Test
    void shouldRefuseAnUnknownChannelEverywhereAndStoreTheRefusalWithTheKey() {
        stockAt(5, "WH-1");
        String key = Api.key();

        api.reserve(key, body("nope", null, 1)).then().statusCode(422).body("type", endsWith("/unknown-channel"));
        api.reserve(key, body("nope", null, 1)).then().statusCode(422).header("Idempotent-Replayed", "true");
        // created later, the channel does not change what the key already answered
        putChannel("nope", null, "WH-1").then().statusCode(200);
        api.reserve(key, body("nope", null, 1)).then().statusCode(422).body("type", endsWith("/unknown-channel"));
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(held("WH-1")).isZero();

        api.request().contentType(ContentType.JSON).body(body("none", null, 1)).post("/v1/availability").then().statusCode(422)
                .body("type", endsWith("/unknown-channel"));
        api.request().queryParam("channel", "none").get("/v1/items").then().statusCode(422).body("type", endsWith("/unknown-channel"));
        api.request().queryParam("channel", "none").get("/v1/items/{sku}", sku).then().statusCode(422);
        api.request().get("/v1/channels/none").then().statusCode(404).body("type", endsWith("/channel-not-found"));
        api.request().queryParam("channel", "bad/name").get("/v1/items").then().statusCode(400);
    }

    @Test
    void shouldNeverLetAnotherTenantUseOrSeeAChannel() {
        stockAt(5, "WH-1");
        putChannel("shared-name", null, "WH-1").then().statusCode(200);
        Api other = Api.newTenant();
        other.setOnHand(sku, "WH-1", 5, null).then().statusCode(200);

        other.reserve(Api.key(), body("shared-name", null, 1)).then().statusCode(422).body("type", endsWith("/unknown-channel"));
        other.request().get("/v1/channels").then().statusCode(200).body("items", org.hamcrest.Matchers.empty());
        other.request().get("/v1/channels/shared-name").then().statusCode(404);
    }

    @Test
    void shouldReplaceAChannelOnlyAtTheVersionIfMatchNames() {
        stockAt(1, "WH-1", "WH-2");
        putChannel("web", "\"1\"", "WH-1").then().statusCode(412).body("type", endsWith("/precondition-failed"))
                .body("detail", org.hamcrest.Matchers.containsString("does not exist"));
        putChannel("web", null, "WH-1").then().statusCode(200).header("ETag", "\"1\"").body("version", is(1));
        putChannel("web", "\"1\"", "WH-2", "WH-1").then().statusCode(200).header("ETag", "\"2\"");
        // a writer that read version 1 is refused, and changes nothing
        putChannel("web", "\"1\"", "WH-1").then().statusCode(412).body("detail", org.hamcrest.Matchers.containsString("now \"2\""));
        putChannel("web", "*", "WH-1").then().statusCode(200).header("ETag", "\"3\"");
        api.request().get("/v1/channels/web").then().statusCode(200).header("ETag", "\"3\"").body("locations", contains("WH-1"));
        api.request().get("/v1/channels").then().statusCode(200).body("items.channel", contains("web"));

        putChannel("web", null, "WH-1", "WH-1").then().statusCode(400).body("violations[0].field", is("locations[1]"));
        putChannel("web", null, "WH-1", "WH-404").then().statusCode(400).body("violations[0].field", is("locations[1]"));
        putChannel("web", null).then().statusCode(400);
        assertThat(db.queryLong("SELECT version FROM channels WHERE tenant_id = ? AND channel = 'web'", api.tenant())).isEqualTo(3);

        String reservationsOnly = Tokens.forTenant(api.tenant(), "reservations");
        io.restassured.RestAssured.given().auth().oauth2(reservationsOnly).contentType(ContentType.JSON)
                .body("{\"locations\":[\"WH-1\"]}").put("/v1/channels/web").then().statusCode(403);
    }

    @Test
    void shouldKeepAnEditOfAChannelReservationWithinTheChannel() {
        String other = Api.sku();
        stockAt(5, "WH-1", "WH-3");
        api.setOnHand(other, "WH-1", 5, null).then().statusCode(200);
        api.setOnHand(other, "WH-3", 5, null).then().statusCode(200);
        putChannel("b2b", null, "WH-3").then().statusCode(200);
        Response made = api.reserve(Api.key(), body("b2b", null, 1));
        made.then().statusCode(201).body("lines[0].location", is("WH-3"));

        // the new line goes where the channel sells from, although WH-1 comes first in location order
        api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key())
                .header("If-Match", api.get(made.path("id")).header("ETag"))
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":2},{\"sku\":\"" + other + "\",\"quantity\":1}]}")
                .patch("/v1/reservations/{id}", made.<String>path("id"))
                .then().statusCode(200).body("lines.location", contains("WH-3", "WH-3"));
        assertThat(held("WH-1")).isZero();
        assertThat(db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = 'WH-1'", api.tenant(),
                other)).isZero();
    }

    @Test
    void shouldKeepARequestWithoutAChannelAsItWasAndFingerprintTheChannel() {
        stockAt(5, "WH-1");
        putChannel("b2b", null, "WH-1").then().statusCode(200);
        String key = Api.key();
        api.reserve(key, body(null, null, 1)).then().statusCode(201).body("channel", nullValue())
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("channel")));
        api.reserve(key, body("b2b", null, 1)).then().statusCode(422).body("type", endsWith("/idempotency-key-reused"));
    }

    private void stockAt(long onHand, String... locations) {
        for (String location : locations) {
            api.setOnHand(sku, location, onHand, null).then().statusCode(200);
        }
    }

    private Response putChannel(String channel, String ifMatch, String... locations) {
        var request = api.request().contentType(ContentType.JSON);
        if (ifMatch != null) {
            request = request.header("If-Match", ifMatch);
        }
        String list = String.join(",", List.of(locations).stream().map(l -> "\"" + l + "\"").toList());
        return request.body("{\"locations\":[" + list + "]}").put("/v1/channels/{channel}", channel);
    }

    private String body(String channel, String allocation, int quantity) {
        return "{" + (channel == null ? "" : "\"channel\":\"" + channel + "\",")
                + (allocation == null ? "" : "\"allocation\":\"" + allocation + "\",") + "\"lines\":[{\"sku\":\"" + sku
                + "\",\"quantity\":" + quantity + "}]}";
    }

    private long held(String location) {
        return db.queryLong("SELECT held FROM stock_records WHERE tenant_id = ? AND sku = ? AND location = ?", api.tenant(), sku,
                location);
    }
}
