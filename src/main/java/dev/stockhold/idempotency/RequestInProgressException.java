package dev.stockhold.idempotency;

import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** idempotency-request-in-progress: the original is still running past the in-flight wait. */
public class RequestInProgressException extends ProblemException {

    public RequestInProgressException() {
        super(Problem.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS,
                "A request with this Idempotency-Key is still being processed; retry after the indicated delay"), 1);
    }
}
