package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.stockhold.reservation.ReservationExpiryJob;
import dev.stockhold.support.Api;
import dev.stockhold.support.MovableClock;
import dev.stockhold.support.StockedSku;
import dev.stockhold.support.TenantFixture;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Once the process begins to stop, the batch jobs take no further batch: a job with a backlog would otherwise run on
 * into the closed pool and session and fail at every rollout. Driven through the expiry job on the real database.
 */
@QuarkusTest
@StockedSku(10)
class StoppingTest extends TenantFixture {

    @Inject
    Stopping stopping;
    @Inject
    ReservationExpiryJob expiry;

    @Test
    void shouldLeaveDueHoldsToTheNextReplicaOnceTheShutdownBegan() {
        try {
            stopping.onShutdownDelay(new ShutdownDelayInitiatedEvent());
            String id = api.reserve(Api.key(), "{\"lines\":[{\"sku\":\"" + sku + "\",\"quantity\":4}],\"ttlSeconds\":1}").path("id");
            MovableClock.advance(Duration.ofMillis(1_100));

            assertThat(expiry.expireDue()).isZero();
            assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1");
            assertThat(db.available(api.tenant(), sku)).isEqualTo(6);

            stopping.resume();
            expiry.expireDue();
            assertThat(db.eventTypes(id)).containsExactly("dev.stockhold.reservation.created.v1",
                    "dev.stockhold.reservation.expired.v1");
            assertThat(db.available(api.tenant(), sku)).isEqualTo(10);
        } finally {
            stopping.resume();
        }
    }

    @Test
    void shouldFinishTheBatchInHandAndTakeNoFurther() {
        List<Integer> batches = new ArrayList<>();
        boolean[] stop = { false };

        int total = Batches.drain(3, () -> stop[0], () -> {
            batches.add(3);
            stop[0] = batches.size() == 2; // SIGTERM arrives during the second batch
            return batches.size() < 4 ? 3 : 0; // a backlog of three full batches
        });

        assertThat(batches).hasSize(2);
        assertThat(total).isEqualTo(6);
        assertThat(Batches.drain(3, () -> false, () -> 2)).isEqualTo(2);
    }
}
