package dev.stockhold.support;

import io.quarkus.test.common.QuarkusTestResource;

/** Registers the real PostgreSQL for every {@code @QuarkusTest}. */
@QuarkusTestResource(PostgresDatabase.class)
public final class TestResources {

    private TestResources() {
    }
}
