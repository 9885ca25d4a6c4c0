package dev.stockhold.chaos;

import dev.stockhold.chaos.Findings.Rule;

/**
 * I2 with transfers: a record's in transit is what its open transfers still carry to it, and transfers make and lose no
 * unit: what they took off on hand (their stock.changed deltas, summed over every record) plus what is in transit is 0.
 */
final class TransfersConserve extends Invariant {

    @Override
    void check() {
        agree(Rule.I2, db.inTransit(), "in transit", db.openTransfers(), "open transfers'");
        long moved = db.events().stream()
                .filter(e -> e.stock() && e.kind().equals("changed") && "transfer".equals(e.data().path("kind").asText()))
                .mapToLong(e -> e.data().path("delta").asLong()).sum();
        long inTransit = db.inTransit().values().stream().mapToLong(Long::longValue).sum();
        if (moved + inTransit != 0) {
            violation(Rule.I2, "transfers moved " + moved + " on hand with " + inTransit + " in transit: units made or lost");
        }
    }
}
