package dev.stockhold.client;

/**
 * What a client has done so far.
 *
 * @param calls calls made (each counted once, however many attempts it took)
 * @param attempts requests sent, retries included
 * @param retries retries the budget allowed
 * @param refusedRetries retries the budget refused
 */
public record ClientStats(long calls, long attempts, long retries, long refusedRetries) {
}
