package dev.stockhold.client;

import java.io.IOException;
import java.time.Duration;

import dev.stockhold.client.Operation.Retry;

/**
 * What the attempts of one call have shown so far, and so whether another may be sent: the decision of the retry
 * policy for every failure, in one place. {@code mayHaveActed} turns a give-up into {@link OutcomeUnknownException}.
 */
final class Attempts {

    private final Request request;
    private final Retry retry;
    private boolean mayHaveActed;
    private Exception last;

    Attempts(Request request) {
        this.request = request;
        this.retry = request.operation().retry();
    }

    /** A problem answer: throws it when it is final, else returns the wait before the next attempt. */
    Duration refused(ProblemException problem, Duration wait) {
        int status = problem.status();
        boolean inProgress = problem instanceof Problems.RequestInProgress;
        boolean notRun = status == 429 || status == 408; // refused before anything ran: the tenant's share, a slow body
        boolean retryable = notRun || inProgress && retry == Retry.KEYED || status >= 500 && retry != Retry.UNSAFE;
        if (!retryable) {
            if (mayHaveActed && status == 412 && request.ifMatch() != null && retry != Retry.KEYED) {
                // an earlier attempt whose answer was lost may be the change that moved the version on
                throw new OutcomeUnknownException(request.operation(), null, problem.attempts(), problem);
            }
            throw problem;
        }
        mayHaveActed |= retry != Retry.READ && !notRun;
        last = problem;
        return wait;
    }

    /** The connection failed before the request was sent: nothing happened, any operation may be sent again. */
    Duration notSent(IOException failure, Duration wait) {
        last = failure;
        return wait;
    }

    /** The request was sent and its answer lost (reset, closed, timed out): it may have taken effect. */
    Duration lost(IOException failure, int attempt, Duration wait) {
        last = failure;
        if (retry == Retry.UNSAFE) {
            throw new OutcomeUnknownException(request.operation(), null, attempt, failure);
        }
        mayHaveActed |= retry != Retry.READ;
        return wait;
    }

    /** The exception that ends a call whose deadline, attempts or budget ran out. */
    StockholdException giveUp(int attempt) {
        if (mayHaveActed) {
            return new OutcomeUnknownException(request.operation(), request.idempotencyKey(), attempt, last);
        }
        if (last instanceof ProblemException problem) {
            return problem;
        }
        return new UnreachableException(request.operation(), request.idempotencyKey(), attempt, last);
    }
}
