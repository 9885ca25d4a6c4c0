package dev.stockhold.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the invariants found over one run: one line per broken rule, counted per rule, and the events never received. */
final class Findings {

    /** The rules a run is checked against, by the invariant names of docs/api.md; the report counts violations per rule. */
    enum Rule {
        I1("I1 held and available never negative"),
        I2("I2 conservation per stock record"),
        I3("I3 one reservation per (tenant, key)"),
        I4("I4 one outbox event per state change"),
        I6("I6 delivered, same id, in order"),
        ANSWERS("answers agree with final state"),
        I7("I7 admin writes as answered, none lost"),
        I8("I8 backorders served first come first served, never beyond supply"),
        I9("I9 a channel's reservations only at its locations"),
        I10("I10 a kit's components held together");

        final String label;

        Rule(String label) {
            this.label = label;
        }
    }

    final List<String> violations = new ArrayList<>();
    final Map<String, Integer> byRule = new LinkedHashMap<>();
    final List<String> missingEvents = new ArrayList<>();
    /** Numbers missing from the CloudEvents sequences received, over all aggregates. */
    int sequenceGaps;

    Findings() {
        for (Rule r : Rule.values()) {
            byRule.put(r.label, 0);
        }
    }

    void violation(Rule rule, String detail) {
        byRule.merge(rule.label, 1, Integer::sum);
        violations.add(rule.label.split(" ")[0] + ": " + detail);
    }
}
