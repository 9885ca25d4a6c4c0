package dev.stockhold.outbox;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The outbox's two transaction rules hold whoever calls: new events are written only inside the transaction of their
 * change, and the relay's and operators' statements, which commit on their own, never run inside a caller's transaction
 * (their COMMIT would commit half of its work).
 */
@QuarkusTest
class OutboxTransactionRulesTest {

    @Inject
    OutboxPersistor persistor;
    @Inject
    RelayStore relay;
    @Inject
    OutboxBacklog backlog;

    @Test
    void shouldRefuseToWriteAnEventOutsideTheTransactionOfItsChange() {
        OutboxPersistor.OutboxRow event = new OutboxPersistor.OutboxRow(UUID.randomUUID(), "t-rules", UUID.randomUUID(), "k",
                "dev.stockhold.reservation.created.v1", "{}", null);

        assertThatThrownBy(() -> persistor.insert(List.of(event))).isInstanceOf(IllegalStateException.class).hasMessageContaining("I4");
    }

    @Test
    void shouldRefuseToRunAStatementWithItsOwnCommitInsideACallersTransaction() {
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(relay::sweepExpiredLeases))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("half way");
        assertThatThrownBy(() -> QuarkusTransaction.requiringNew().run(() -> backlog.stats(null)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("half way");
    }
}
