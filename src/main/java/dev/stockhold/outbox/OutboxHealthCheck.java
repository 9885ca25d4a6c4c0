package dev.stockhold.outbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Shows the broker and the backlog in {@code /q/health/ready} but never fails readiness: while the broker is down the
 * outbox holds the events and reservations keep succeeding.
 */
@Readiness
@ApplicationScoped
public class OutboxHealthCheck implements HealthCheck {

    @Inject
    EventPublisher publisher;
    @Inject
    OutboxBacklog store;
    @Inject
    BrokerState broker;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("outbox-relay").up().withData("target", publisher.target());
        broker.unreachableSince().ifPresentOrElse(
                since -> response.withData("broker", "unreachable")
                        .withData("brokerUnreachableSince", since.toString())
                        .withData("brokerLastError", String.valueOf(broker.lastError())),
                () -> response.withData("broker", "reachable"));
        publisher.topologyWarning().ifPresent(warning -> response.withData("topology", warning));
        try {
            OutboxBacklog.OutboxStats stats = store.stats(null);
            response.withData("pending", stats.pending()).withData("dead", stats.dead())
                    .withData("oldestPendingAgeSeconds", Math.round(stats.oldestPendingAgeSeconds()));
        } catch (RuntimeException e) {
            response.withData("backlog", "unknown: database unreachable");
        }
        return response.build();
    }
}
