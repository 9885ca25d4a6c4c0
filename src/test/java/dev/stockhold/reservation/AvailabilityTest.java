package dev.stockhold.reservation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** POST /v1/availability: the placement a reservation made now would get, for every allocation, writing nothing. */
@QuarkusTest
class AvailabilityTest extends TenantFixture {

    @BeforeEach
    void setUp() {
        api.putLocation("WH-1", 1);
        api.putLocation("WH-2", 2);
        api.setOnHand(sku, "WH-1", 3, null).then().statusCode(200);
        api.setOnHand(sku, "WH-2", 5, null).then().statusCode(200);
    }

    @Test
    void shouldPlaceEachAllocationAsTheReservationMadeRightAfterIsPlaced() {
        for (String allocation : List.of("whole", "split", "partial")) {
            String lines = "[{\"sku\":\"" + sku + "\",\"quantity\":4}]";
            List<Map<String, Object>> placement = check(lines, allocation).then().statusCode(200).body("reservable", equalTo(true))
                    .body("allocation", equalTo(allocation)).body("lines[0].available.location", contains("WH-1", "WH-2"))
                    .extract().path("lines[0].placement");
            Response created = api.reserve(Api.key(), "{\"lines\":" + lines + ",\"allocation\":\"" + allocation + "\"}");
            created.then().statusCode(201);
            List<Map<String, Object>> held = allocation.equals("whole")
                    ? List.of(Map.of("location", created.path("lines[0].location"), "quantity", 4))
                    : created.path("lines[0].allocations");
            assertThat(placement).as(allocation).isEqualTo(held);
            api.cancel(created.path("id")).then().statusCode(200);
        }
    }

    @Test
    void shouldSayWhatIsShortAndWriteNothing() {
        long events = db.outboxEventsOfTenant(api.tenant());
        check("[{\"sku\":\"" + sku + "\",\"quantity\":6}]", null).then().statusCode(200).body("reservable", equalTo(false))
                .body("allocation", equalTo("whole")).body("lines[0].reservable", equalTo(false)).body("lines[0].placement", hasSize(0))
                .body("lines[0].available.available", contains(3, 5));
        check("[{\"sku\":\"" + sku + "\",\"quantity\":10}]", "partial").then().statusCode(200).body("reservable", equalTo(true))
                .body("lines[0].reservable", equalTo(false)).body("lines[0].shortfall", equalTo(2))
                .body("lines[0].placement.quantity", contains(3, 5));
        check("[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"NOPE-" + sku + "\",\"quantity\":1}]", "split").then().statusCode(200)
                .body("reservable", equalTo(false)).body("lines[0].reservable", equalTo(true)).body("lines[0].placement", hasSize(0))
                .body("lines[1].available", hasSize(0));
        assertThat(db.reservationsOfTenant(api.tenant())).isZero();
        assertThat(db.idempotencyRecordsOfTenant(api.tenant())).isZero();
        assertThat(db.outboxEventsOfTenant(api.tenant())).isEqualTo(events);
    }

    @Test
    void shouldRefuseBadBodies() {
        check("[]", null).then().statusCode(400).body("type", endsWith("/validation-failed"));
        check("[{\"sku\":\"" + sku + "\",\"quantity\":1}]", "spread").then().statusCode(400).body("type", endsWith("/validation-failed"));
        check("[{\"sku\":\"" + sku + "\",\"quantity\":1},{\"sku\":\"" + sku + "\",\"quantity\":2}]", null).then().statusCode(400);
        api.request().contentType(ContentType.JSON).body("{\"lines\":").post("/v1/availability").then().statusCode(400)
                .body("type", endsWith("/malformed-request"));
    }

    private Response check(String lines, String allocation) {
        return api.request().contentType(ContentType.JSON)
                .body("{\"lines\":" + lines + (allocation == null ? "" : ",\"allocation\":\"" + allocation + "\"") + "}")
                .post("/v1/availability");
    }
}
