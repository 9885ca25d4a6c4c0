package dev.stockhold.outbox;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Events written and not yet published: how many, how many dead, and how old the oldest is, for the health check, the
 * metrics and the admin endpoint. The incomplete-publications role of the outbox; its own short transaction.
 */
@ApplicationScoped
public class OutboxBacklog {

    @Inject
    OutboxJdbc jdbc;

    /** Pending count, dead count and age of the oldest pending event; all tenants, or one. */
    public OutboxStats stats(String tenantIdOrNull) {
        OutboxJdbc.Binder binder = tenantIdOrNull == null ? ps -> {
        } : ps -> {
            ps.setString(1, tenantIdOrNull);
            ps.setString(2, tenantIdOrNull);
            ps.setString(3, tenantIdOrNull);
        };
        return jdbc.inOwnTransaction(tenantIdOrNull == null ? OutboxDialect.STATS : OutboxDialect.TENANT_STATS, binder,
                rs -> {
                    rs.next();
                    return new OutboxStats(rs.getLong(1), rs.getLong(2), rs.getDouble(3));
                });
    }

    /** Outbox backlog figures. */
    public record OutboxStats(long pending, long dead, double oldestPendingAgeSeconds) {
    }
}
