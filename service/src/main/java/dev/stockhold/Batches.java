package dev.stockhold;

import java.util.function.IntSupplier;

/** Background jobs work in small transactions: repeat a batch until one comes back less than full. */
public final class Batches {

    private Batches() {
    }

    /** @return the total the batches processed */
    public static int drain(int batchSize, IntSupplier batch) {
        int total = 0;
        int done;
        do {
            done = batch.getAsInt();
            total += done;
        } while (done == batchSize);
        return total;
    }
}
