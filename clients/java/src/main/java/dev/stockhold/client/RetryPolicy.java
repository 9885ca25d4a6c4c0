package dev.stockhold.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When and how often a call is sent again. A call is retried after a connection failure or a timeout before its
 * answer, a 409 {@code idempotency-request-in-progress}, a 408 or 429 or a 5xx (see {@link Operation.Retry} for which
 * operations may be repeated after their request may have arrived), never after another 4xx. The wait before attempt
 * n+1 is drawn uniformly from [0, min(maxBackoff, initialBackoff * multiplier^(n-1))] ("full jitter"), or is the
 * answer's {@code Retry-After} when it gave one. A call gives up at its deadline or after {@code maxAttempts}; a
 * retry also needs a token from the client's {@link RetryBudget}.
 *
 * @param maxAttempts attempts per call, the first included (at least 1)
 * @param initialBackoff the upper bound of the first wait
 * @param maxBackoff the largest upper bound of a wait
 * @param multiplier how much the bound grows per attempt
 * @param attemptTimeout how long one attempt waits for its answer
 * @param deadline how long a call may take, all attempts and waits included
 * @param budgetRatio retries the budget earns per call (0.2: one retry per five calls)
 * @param budgetPerSecond retries the budget allows per second whatever the calls
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, double multiplier, Duration attemptTimeout,
        Duration deadline, double budgetRatio, double budgetPerSecond) {

    /** 8 attempts, waits from 100 ms up to 5 s, 10 s per attempt, 30 s per call, a budget of 20% plus 10 per second. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(8, Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, Duration.ofSeconds(10),
            Duration.ofSeconds(30), 0.2, 10);

    /** No retry at all: one attempt, the answer or the failure as it came. */
    public static final RetryPolicy NONE = DEFAULT.withMaxAttempts(1);

    public RetryPolicy {
        if (maxAttempts < 1 || multiplier < 1 || budgetRatio < 0 || budgetPerSecond < 0 || initialBackoff.isNegative()
                || maxBackoff.isNegative() || attemptTimeout.isNegative() || attemptTimeout.isZero() || deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("a retry policy needs at least one attempt, positive timeouts and no negative waits");
        }
    }

    public RetryPolicy withMaxAttempts(int value) {
        return new RetryPolicy(value, initialBackoff, maxBackoff, multiplier, attemptTimeout, deadline, budgetRatio, budgetPerSecond);
    }

    public RetryPolicy withBackoff(Duration initial, Duration max, double factor) {
        return new RetryPolicy(maxAttempts, initial, max, factor, attemptTimeout, deadline, budgetRatio, budgetPerSecond);
    }

    public RetryPolicy withAttemptTimeout(Duration value) {
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, multiplier, value, deadline, budgetRatio, budgetPerSecond);
    }

    public RetryPolicy withDeadline(Duration value) {
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, multiplier, attemptTimeout, value, budgetRatio, budgetPerSecond);
    }

    public RetryPolicy withBudget(double ratio, double perSecond) {
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, multiplier, attemptTimeout, deadline, ratio, perSecond);
    }

    /** The wait after the {@code attempt}-th attempt failed (1-based), drawn with full jitter. */
    public Duration backoff(int attempt) {
        double bound = initialBackoff.toNanos() * Math.pow(multiplier, Math.max(0, attempt - 1));
        long cap = (long) Math.min(maxBackoff.toNanos(), bound);
        return Duration.ofNanos(cap <= 0 ? 0 : ThreadLocalRandom.current().nextLong(cap + 1));
    }
}
