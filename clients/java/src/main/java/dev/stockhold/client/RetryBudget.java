package dev.stockhold.client;

/**
 * Retries one client may make, shared by its calls, so that an outage is not met with a multiple of the normal load:
 * every call earns {@code ratio} of a retry, every second earns {@code perSecond}, a retry spends one. The balance
 * is capped at ten seconds' worth plus a hundred calls' worth. This is the retry budget of Finagle and gRPC.
 */
public final class RetryBudget {

    private final double ratio;
    private final double perSecond;
    private final double cap;
    private double balance;
    private long lastNanos;
    private long spent;
    private long refused;

    RetryBudget(double ratio, double perSecond) {
        this.ratio = ratio;
        this.perSecond = perSecond;
        this.cap = perSecond * 10 + ratio * 100;
        this.balance = perSecond;
        this.lastNanos = System.nanoTime();
    }

    synchronized void deposit() {
        refill();
        balance = Math.min(cap, balance + ratio);
    }

    /** Takes one retry from the budget, or says there is none left. */
    synchronized boolean tryWithdraw() {
        refill();
        if (balance < 1) {
            refused++;
            return false;
        }
        balance -= 1;
        spent++;
        return true;
    }

    private void refill() {
        long now = System.nanoTime();
        balance = Math.min(cap, balance + (now - lastNanos) / 1e9 * perSecond);
        lastNanos = now;
    }

    /** Retries made so far. */
    public synchronized long spent() {
        return spent;
    }

    /** Retries the budget refused so far. */
    public synchronized long refused() {
        return refused;
    }
}
