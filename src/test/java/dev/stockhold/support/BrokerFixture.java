package dev.stockhold.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** {@link TenantFixture} plus a queue of this test's own that receives what the relay publishes to RabbitMQ. */
public abstract class BrokerFixture extends TenantFixture {

    protected BrokerQueue broker;

    @BeforeEach
    void newBrokerQueue() {
        broker = new BrokerQueue();
    }

    @AfterEach
    void closeBrokerQueue() {
        broker.close();
    }
}
