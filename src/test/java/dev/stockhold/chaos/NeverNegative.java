package dev.stockhold.chaos;

import dev.stockhold.chaos.Findings.Rule;

/** I1: no record's held, committed or available is ever below zero. */
final class NeverNegative extends Invariant {

    @Override
    void check() {
        run.db().records().forEach((subject, record) -> {
            if (record.held() < 0 || record.committed() < 0 || record.available() < 0) {
                violation(Rule.I1,
                        subject + " has on hand " + record.onHand() + ", held " + record.held() + ", committed " + record.committed());
            }
        });
    }
}
