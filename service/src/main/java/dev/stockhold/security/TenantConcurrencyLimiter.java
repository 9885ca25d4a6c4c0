package dev.stockhold.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import dev.stockhold.StockholdConfig;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/**
 * One tenant flooding requests cannot take every worker and connection from the others: each tenant may have at most
 * {@code stockhold.limits.per-tenant-concurrency} requests in progress in this replica; the next gets 429 with
 * {@code Retry-After} at once, before any work.
 */
@TenantLimited
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class TenantConcurrencyLimiter {

    private final StockholdConfig config;
    private final CurrentTenant tenant;
    private final Map<String, Semaphore> inProgress = new ConcurrentHashMap<>();

    TenantConcurrencyLimiter(StockholdConfig config, CurrentTenant tenant) {
        this.config = config;
        this.tenant = tenant;
    }

    @AroundInvoke
    Object limit(InvocationContext invocation) throws Exception {
        int limit = config.limits().perTenantConcurrency();
        if (limit <= 0) {
            return invocation.proceed();
        }
        Semaphore permits = inProgress.computeIfAbsent(tenant.id(), id -> new Semaphore(limit));
        if (!permits.tryAcquire()) {
            throw new TooManyRequestsException(limit);
        }
        try {
            return invocation.proceed();
        } finally {
            permits.release();
        }
    }

    /** too-many-requests: the tenant is at its concurrency limit. */
    public static class TooManyRequestsException extends ProblemException {
        TooManyRequestsException(int limit) {
            super(Problem.of(ProblemType.TOO_MANY_REQUESTS,
                    "This tenant already has " + limit + " requests in progress; retry after the indicated delay"), 1);
        }
    }
}
