package dev.stockhold.chaos;

import java.util.List;
import java.util.Map;

import dev.stockhold.chaos.Findings.Rule;
import dev.stockhold.support.BrokerQueue.Delivery;

/**
 * One invariant of a chaos run, checked over one consistent snapshot of the database, the clients' log and what the
 * consumer received. A new feature adds its client and, if it brings one, its invariant to {@link InvariantChecker}'s
 * list; it edits no other.
 */
abstract class Invariant {

    /** What a run leaves to check: the database after it, the stock the run set, the clients' log, the deliveries in order. */
    record Run(Snapshot db, Map<String, Long> initialStock, ClientLog clients, List<Delivery> received) {
    }

    private Findings found;
    /** The run being checked, its database snapshot and its clients' log; set before {@link #check()}. */
    Run run;
    Snapshot db;
    ClientLog clients;

    final void check(Run checked, Findings findings) {
        this.found = findings;
        this.run = checked;
        this.db = checked.db();
        this.clients = checked.clients();
        check();
    }

    abstract void check();

    final void violation(Rule rule, String detail) {
        found.violation(rule, detail);
    }

    /** Every subject of either map has the same figure in both (absent: 0); each that differs is a violation of {@code rule}. */
    final void agree(Rule rule, Map<String, Long> actual, String what, Map<String, Long> expected, String source) {
        java.util.Set<String> subjects = new java.util.TreeSet<>(actual.keySet());
        subjects.addAll(expected.keySet());
        for (String subject : subjects) {
            long is = actual.getOrDefault(subject, 0L);
            long shouldBe = expected.getOrDefault(subject, 0L);
            if (is != shouldBe) {
                violation(rule, subject + ": " + what + " " + is + " != " + source + " " + shouldBe);
            }
        }
    }

    final Findings findings() {
        return found;
    }
}
