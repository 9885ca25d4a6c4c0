package dev.stockhold;

import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/** Background jobs work in small transactions: repeat a batch until one comes back less than full. */
public final class Batches {

    private Batches() {
    }

    /**
     * Runs {@code batch} until one processes fewer than {@code batchSize}, or {@code stop} says the process is stopping
     * (checked before each batch, so a batch in hand is finished, never cut off). @return the total the batches processed
     */
    public static int drain(int batchSize, BooleanSupplier stop, IntSupplier batch) {
        int total = 0;
        while (!stop.getAsBoolean()) {
            int done = batch.getAsInt();
            total += done;
            if (done < batchSize) {
                break;
            }
        }
        return total;
    }
}
