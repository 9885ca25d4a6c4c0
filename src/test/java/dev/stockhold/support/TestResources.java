package dev.stockhold.support;

import io.quarkus.test.common.QuarkusTestResource;

/** Registers the real PostgreSQL and RabbitMQ for every {@code @QuarkusTest}. */
@QuarkusTestResource(PostgresDatabase.class)
@QuarkusTestResource(RabbitBroker.class)
public final class TestResources {

    private TestResources() {
    }
}
