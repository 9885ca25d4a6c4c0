package dev.stockhold.web;

import java.util.List;

/** validation-failed: well-formed JSON or parameters that break the API's rules (docs/api.md). */
public class ValidationFailedException extends ProblemException {

    public ValidationFailedException(List<Problem.Violation> violations) {
        super(Problem.of(ProblemType.VALIDATION_FAILED, describe(violations)).withViolations(violations));
    }

    public ValidationFailedException(String field, String message) {
        this(List.of(new Problem.Violation(field, message)));
    }

    private static String describe(List<Problem.Violation> violations) {
        StringBuilder detail = new StringBuilder("Invalid request: ");
        for (int i = 0; i < violations.size(); i++) {
            Problem.Violation v = violations.get(i);
            detail.append(i == 0 ? "" : "; ").append(v.field()).append(' ').append(v.message());
        }
        return detail.toString();
    }
}
