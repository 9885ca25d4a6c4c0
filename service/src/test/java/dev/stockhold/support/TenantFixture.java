package dev.stockhold.support;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;

/**
 * What most service tests start from: a tenant of their own (so tests never see each other's data), the API as that
 * tenant, and the database to check what the API did. Runs before the test class's own {@code @BeforeEach}.
 */
public abstract class TenantFixture {

    @Inject
    protected DataSource dataSource;

    protected Db db;
    protected Api api;

    @BeforeEach
    void newTenant() {
        db = new Db(dataSource);
        api = Api.newTenant();
    }
}
