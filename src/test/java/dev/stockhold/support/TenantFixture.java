package dev.stockhold.support;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;

/**
 * What most service tests start from: a tenant of their own (so tests never see each other's data), the API as that
 * tenant, the database to check what the API did, and a sku of its own. Runs before the test class's own
 * {@code @BeforeEach}.
 */
public abstract class TenantFixture {

    @Inject
    protected DataSource dataSource;

    protected Db db;
    protected Api api;
    /** A sku of this test's own; with {@link StockedSku} on the class it has stock before the test starts. */
    protected final String sku = Api.sku();

    @BeforeEach
    void newTenant() {
        db = new Db(dataSource);
        api = Api.newTenant();
        StockedSku stocked = getClass().getAnnotation(StockedSku.class);
        if (stocked != null) {
            api.setStock(sku, stocked.value());
        }
    }
}
