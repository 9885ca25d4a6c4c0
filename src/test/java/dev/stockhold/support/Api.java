package dev.stockhold.support;

import static io.restassured.RestAssured.given;

import java.util.UUID;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** The HTTP API as one tenant sees it, with a token carrying every role. */
public final class Api {

    private final String tenant;
    private final String token;

    private Api(String tenant) {
        this.tenant = tenant;
        this.token = Tokens.allRoles(tenant);
    }

    /** A fresh tenant of its own, so tests never see each other's data. */
    public static Api newTenant() {
        return new Api("t-" + UUID.randomUUID().toString().substring(0, 13));
    }

    public String tenant() {
        return tenant;
    }

    public RequestSpecification request() {
        return given().auth().oauth2(token);
    }

    public void setStock(String sku, long available) {
        request().contentType(ContentType.JSON).body("{\"available\":" + available + "}")
                .put("/v1/items/{sku}", sku).then().statusCode(200);
    }

    /** PUT /v1/items/{sku}/stock/{location}; ifMatch null for an unconditional set. */
    public Response setOnHand(String sku, String location, long onHand, String ifMatch) {
        RequestSpecification spec = request().contentType(ContentType.JSON).body("{\"onHand\":" + onHand + "}");
        if (ifMatch != null) {
            spec = spec.header("If-Match", ifMatch);
        }
        return spec.put("/v1/items/{sku}/stock/{location}", sku, location);
    }

    public Response adjust(String key, String sku, String location, long delta) {
        return request().contentType(ContentType.JSON).header("Idempotency-Key", key).body("{\"delta\":" + delta + "}")
                .post("/v1/items/{sku}/stock/{location}/adjustments", sku, location);
    }

    public void putLocation(String location, int priority) {
        request().contentType(ContentType.JSON).body("{\"priority\":" + priority + "}")
                .put("/v1/locations/{location}", location).then().statusCode(200);
    }

    public Response reserve(String key, String body) {
        return request().contentType(ContentType.JSON).header("Idempotency-Key", key).body(body).post("/v1/reservations");
    }

    public Response reserve(String key, String sku, int quantity) {
        return reserve(key, "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]}");
    }

    public Response confirm(String id) {
        return request().post("/v1/reservations/{id}/confirm", id);
    }

    public Response cancel(String id) {
        return request().post("/v1/reservations/{id}/cancel", id);
    }

    /** POST /v1/reservations/{id}/fulfilments: {@code lines} is the JSON array of {sku, location, quantity}. */
    public Response fulfil(String key, String id, String lines) {
        return request().contentType(ContentType.JSON).header("Idempotency-Key", key).body("{\"lines\":" + lines + "}")
                .post("/v1/reservations/{id}/fulfilments", id);
    }

    /** POST /v1/reservations/{id}/release, the same shape as {@link #fulfil}. */
    public Response release(String key, String id, String lines) {
        return request().contentType(ContentType.JSON).header("Idempotency-Key", key).body("{\"lines\":" + lines + "}")
                .post("/v1/reservations/{id}/release", id);
    }

    /** One line of a fulfilment or release, as JSON. */
    public static String line(String sku, int quantity) {
        return "[{\"sku\":\"" + sku + "\",\"quantity\":" + quantity + "}]";
    }

    public Response get(String id) {
        return request().get("/v1/reservations/{id}", id);
    }

    public static String key() {
        return "key-" + UUID.randomUUID();
    }

    public static String sku() {
        return "SKU-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
