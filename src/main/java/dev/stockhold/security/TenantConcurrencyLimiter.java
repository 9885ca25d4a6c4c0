package dev.stockhold.security;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import jakarta.inject.Singleton;

import dev.stockhold.StockholdConfig;

/**
 * One tenant flooding requests cannot take every worker and connection from the others: each tenant may have at most
 * {@code stockhold.limits.per-tenant-concurrency} requests in progress in this replica; the next gets 429 with
 * {@code Retry-After} at once, before any work (Admission asks, after authentication and before the global limit).
 */
@Singleton
public class TenantConcurrencyLimiter {

    private final int limit;
    private final Map<String, Semaphore> inProgress = new ConcurrentHashMap<>();

    TenantConcurrencyLimiter(StockholdConfig config) {
        this.limit = config.limits().perTenantConcurrency();
    }

    /** A permit for one request of the tenant, to run when it ends; empty when the tenant is at its limit. */
    public Optional<Runnable> tryAcquire(String tenantId) {
        if (limit <= 0) {
            return Optional.of(() -> {
            });
        }
        Semaphore permits = inProgress.computeIfAbsent(tenantId, id -> new Semaphore(limit));
        return permits.tryAcquire() ? Optional.of(permits::release) : Optional.empty();
    }

    public int limit() {
        return limit;
    }
}
