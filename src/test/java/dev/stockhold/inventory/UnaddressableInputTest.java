package dev.stockhold.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Input that would make a record nobody can address or correct: skus and locations named . or .. (a path cannot carry
 * them), a count dated in the future (every later count would be stale), and an edit that names no version.
 */
@QuarkusTest
class UnaddressableInputTest extends TenantFixture {

    @Test
    void shouldRefuseDotNamesWhereverABodyNamesASkuOrLocation() {
        for (String name : new String[]{ ".", ".." }) {
            post("/v1/stock/adjustments", "{\"adjustments\":[{\"sku\":\"" + name + "\",\"location\":\"WH-1\",\"delta\":1}]}")
                    .then().statusCode(400).body("type", equalTo("/problems/validation-failed"));
            post("/v1/stock/adjustments", "{\"adjustments\":[{\"sku\":\"" + sku + "\",\"location\":\"" + name + "\",\"delta\":1}]}")
                    .then().statusCode(400).body("type", equalTo("/problems/validation-failed"));
            post("/v1/locations/WH-1/snapshots",
                    "{\"asOf\":\"2026-01-01T00:00:00Z\",\"records\":[{\"sku\":\"" + name + "\",\"onHand\":1}]}")
                    .then().statusCode(400).body("type", equalTo("/problems/validation-failed"));
            post("/v1/reservations", "{\"lines\":[{\"sku\":\"" + name + "\",\"quantity\":1}]}")
                    .then().statusCode(400).body("violations.field", hasItem("lines[0].sku"));
        }
        // names that merely contain dots stay valid
        post("/v1/stock/adjustments", "{\"adjustments\":[{\"sku\":\"...\",\"location\":\"a.b\",\"delta\":1}]}").then().statusCode(200);
        assertThat(
                db.queryLong("SELECT count(*) FROM stock_records WHERE tenant_id = ? AND (sku IN ('.', '..') OR location IN ('.', '..'))",
                        api.tenant()))
                .isZero();
    }

    @Test
    void shouldRefuseACountDatedInTheFuture() {
        api.adjust(Api.key(), sku, "WH-1", 5).then().statusCode(200);
        post("/v1/locations/WH-1/snapshots", "{\"asOf\":\"9999-12-31T00:00:00Z\",\"records\":[{\"sku\":\"" + sku + "\",\"onHand\":1}]}")
                .then().statusCode(400).body("violations[0].field", equalTo("asOf"));
        String now = java.time.Instant.now().toString();
        post("/v1/locations/WH-1/snapshots", "{\"asOf\":\"" + now + "\",\"records\":[{\"sku\":\"" + sku + "\",\"onHand\":3}]}")
                .then().statusCode(200).body("records[0].status", equalTo("applied"));
        api.request().get("/v1/items/{sku}/stock/{location}", sku, "WH-1").then().body("onHand", equalTo(3));
    }

    @Test
    void shouldRefuseAnEditThatNamesNoVersion() {
        api.setStock(sku, 10);
        Response created = api.reserve(Api.key(), sku, 2);
        String id = created.path("id");
        api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key()).header("If-Match", "*")
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":9}]}").patch("/v1/reservations/{id}", id)
                .then().statusCode(400).body("violations[0].field", equalTo("If-Match"));
        api.request().get("/v1/reservations/{id}", id).then().body("lines[0].quantity", equalTo(2));
    }

    private Response post(String path, String body) {
        return api.request().contentType(ContentType.JSON).header("Idempotency-Key", Api.key()).body(body).post(path);
    }
}
