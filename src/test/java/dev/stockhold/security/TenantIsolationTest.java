package dev.stockhold.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Api;
import dev.stockhold.support.Db;
import io.quarkus.test.junit.QuarkusTest;

/** I5: tenant B naming tenant A's reservation, sku or key sees nothing of A's and changes nothing of A's. */
@QuarkusTest
class TenantIsolationTest {

    @Inject
    DataSource dataSource;

    Db db;
    Api a;
    Api b;
    String sku;
    String key;
    String reservationOfA;

    @BeforeEach
    void setUp() {
        db = new Db(dataSource);
        a = Api.newTenant();
        b = Api.newTenant();
        sku = Api.sku();
        key = Api.key();
        a.setStock(sku, 10);
        reservationOfA = a.reserve(key, sku, 3).then().statusCode(201).extract().path("id");
    }

    @Test
    void shouldNotShowAnotherTenantsReservationOrItem() {
        b.get(reservationOfA).then().statusCode(404).body("type", equalTo("/problems/reservation-not-found"));
        b.request().get("/v1/items/{sku}", sku).then().statusCode(404)
                .body("type", equalTo("/problems/item-not-found"));
    }

    @Test
    void shouldNotLetAnotherTenantConfirmOrCancel() {
        b.confirm(reservationOfA).then().statusCode(404);
        b.cancel(reservationOfA).then().statusCode(404);

        assertThat(db.status(reservationOfA)).isEqualTo("HELD");
        assertThat(db.available(a.tenant(), sku)).isEqualTo(7);
        assertThat(db.eventTypes(reservationOfA)).hasSize(1);
    }

    @Test
    void shouldTreatAnotherTenantsSkuAsUnknown() {
        b.reserve(Api.key(), sku, 1).then().statusCode(422).body("type", equalTo("/problems/unknown-sku"));

        assertThat(db.available(a.tenant(), sku)).isEqualTo(7);
        assertThat(db.reservationsOfTenant(b.tenant())).isZero();
    }

    @Test
    void shouldKeepEachTenantsStockApartUnderTheSameSku() {
        b.setStock(sku, 500);

        assertThat(db.available(a.tenant(), sku)).isEqualTo(7);
        assertThat(db.available(b.tenant(), sku)).isEqualTo(500);
        a.request().get("/v1/items/{sku}", sku).then().body("available", equalTo(7));
    }

    @Test
    void shouldScopeIdempotencyKeysByTenant() {
        b.setStock(sku, 5);

        String reservationOfB = b.reserve(key, sku, 3).then().statusCode(201).header("Idempotent-Replayed", (String) null)
                .extract().path("id");

        assertThat(reservationOfB).isNotEqualTo(reservationOfA);
        assertThat(db.available(a.tenant(), sku)).isEqualTo(7);
        assertThat(db.available(b.tenant(), sku)).isEqualTo(2);
        assertThat(db.reservationsWithKey(a.tenant(), key)).isEqualTo(1);
        assertThat(db.reservationsWithKey(b.tenant(), key)).isEqualTo(1);
    }
}
