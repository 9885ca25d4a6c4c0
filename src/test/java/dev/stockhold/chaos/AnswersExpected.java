package dev.stockhold.chaos;

import dev.stockhold.chaos.Findings.Rule;

/**
 * The clients of channels, backorders and kits received no answer a correct service never gives: each names the
 * refusals its requests may meet, and anything else (a 400, a 404 of what it made, an unknown channel) is reported.
 */
final class AnswersExpected extends Invariant {

    @Override
    void check() {
        clients.unexpected.forEach(answer -> violation(Rule.ANSWERS, answer));
    }
}
