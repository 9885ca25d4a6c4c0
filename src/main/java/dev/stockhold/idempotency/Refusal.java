package dev.stockhold.idempotency;

/**
 * Thrown out of the transaction of an executed request that was refused (insufficient stock, stock below held): it rolls
 * back every effect, and the caller then stores the refusal on its own, so a retry of the key gets the same answer.
 */
public final class Refusal extends RuntimeException {

    private final transient StoredResponse response;

    public Refusal(StoredResponse response) {
        super(null, null, false, false);
        this.response = response;
    }

    public StoredResponse response() {
        return response;
    }
}
