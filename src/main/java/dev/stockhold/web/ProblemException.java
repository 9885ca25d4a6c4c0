package dev.stockhold.web;

/** An error that becomes a problem+json response; subclasses name one slug each. */
public class ProblemException extends RuntimeException {

    private final transient Problem problem;
    private final Integer retryAfterSeconds;

    public ProblemException(Problem problem) {
        this(problem, null);
    }

    public ProblemException(ProblemType type, String detail) {
        this(Problem.of(type, detail), null);
    }

    /** A problem that tells the client when to retry ({@code Retry-After}). */
    protected ProblemException(Problem problem, Integer retryAfterSeconds) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public Problem problem() {
        return problem;
    }

    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
