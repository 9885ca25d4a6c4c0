package dev.stockhold.idempotency;

import dev.stockhold.web.ProblemException;
import dev.stockhold.web.ProblemType;

/** idempotency-key-reused: the key already names a different request. */
public class IdempotencyKeyReusedException extends ProblemException {

    public IdempotencyKeyReusedException() {
        super(ProblemType.IDEMPOTENCY_KEY_REUSED,
                "This Idempotency-Key was already used with a different request body; use a new key for a new request");
    }
}
