package dev.stockhold.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.stockhold.support.Api;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.http.Header;
import io.restassured.http.Headers;

/**
 * The two forms of Idempotency-Key name one key (I3): a client that sends {@code "order-42"} on one try and
 * {@code order-42} on the next reserves once. Every malformed quoted form is 400 and stores nothing.
 */
@QuarkusTest
@StockedSku(10)
class IdempotencyKeyFormsTest extends TenantFixture {

    @Test
    void shouldTreatTheQuotedAndTheBareFormAsOneKey() {
        String key = "order-" + Api.key();
        String id = api.reserve("\"" + key + "\"", sku, 2).then().statusCode(201).extract().path("id");

        api.reserve(key, sku, 2).then().statusCode(201).header("Idempotent-Replayed", "true")
                .body("id", org.hamcrest.Matchers.equalTo(id));
        api.reserve("\"" + key + "\"", sku, 2).then().statusCode(201).header("Idempotent-Replayed", "true");

        assertThat(reservations()).isEqualTo(1);
        assertThat(db.available(api.tenant(), sku)).isEqualTo(8);
        assertThat(db.queryStrings("SELECT idempotency_key FROM idempotency_records WHERE tenant_id = ?", api.tenant()))
                .containsExactly(key);
    }

    @Test
    void shouldUnescapeAQuotedKeyAndAcceptSpacesInIt() {
        api.reserve("\"a\\\"b\\\\c\"", sku, 1).then().statusCode(201);
        api.reserve("a\"b\\c", sku, 1).then().statusCode(201).header("Idempotent-Replayed", "true");
        api.reserve("\"two words\"", sku, 1).then().statusCode(201);

        assertThat(db.queryStrings("SELECT idempotency_key FROM idempotency_records WHERE tenant_id = ? ORDER BY 1", api.tenant()))
                .containsExactly("a\"b\\c", "two words");
    }

    @Test
    void shouldCountTheLengthAfterUnquoting() {
        api.reserve("\"" + "k".repeat(255) + "\"", sku, 1).then().statusCode(201);
        api.reserve("\"" + "k".repeat(256) + "\"", sku, 1).then().statusCode(400).body("type", endsWith("/idempotency-key-invalid"));
        assertThat(reservations()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = { "\"unbalanced", "\"bad\\escape\"", "\"after\"quote", "\"\"", "\"tab\there\"", "\"caf\u00e9\"",
            "\"trailing\\\"", "bare space" })
    void shouldRefuseAMalformedKeyAndStoreNothing(String header) {
        api.reserve(header, sku, 1).then().statusCode(400).body("type", endsWith("/idempotency-key-invalid"));

        assertThat(reservations()).isZero();
        assertThat(db.queryLong("SELECT count(*) FROM idempotency_records WHERE tenant_id = ?", api.tenant())).isZero();
    }

    @Test
    void shouldRefuseTwoIdempotencyKeyFields() {
        api.request().contentType(ContentType.JSON)
                .headers(new Headers(List.of(new Header("Idempotency-Key", "one"), new Header("Idempotency-Key", "two"))))
                .body("{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":1}]}")
                .post("/v1/reservations").then().statusCode(400).body("type", endsWith("/idempotency-key-invalid"));
        assertThat(reservations()).isZero();
    }

    private long reservations() {
        return db.queryLong("SELECT count(*) FROM reservations WHERE tenant_id = ?", api.tenant());
    }
}
