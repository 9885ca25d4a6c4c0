package dev.stockhold.idempotency;

import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import dev.stockhold.LockWait;
import dev.stockhold.StockholdConfig;
import dev.stockhold.web.Problem;
import dev.stockhold.web.ProblemResponses;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * Runs a state change once per (tenant, Idempotency-Key), for the requests whose answer is known only after their
 * effects (adjustments, fulfilments and releases, edits): the key is claimed first in the change's own transaction, so
 * a duplicate waits for it and then replays; the answer is stored with the effects. A {@link Refusal} rolls every effect
 * back and is then stored on its own, so a retry gets the same refusal. Any other exception rolls back the key too: it
 * is not stored (404, 400, 5xx).
 */
@ApplicationScoped
public class OncePerKey {

    /** The answer: a stored outcome, fresh or replayed. */
    public record Reply(StoredResponse response, boolean replayed) {
    }

    @Inject
    IdempotencyRepository keys;
    @Inject
    LockWait lockWait;
    @Inject
    ProblemResponses problems;
    @Inject
    StockholdConfig config;

    /**
     * @param subject the reservation the change is about, stored with the key (null for none)
     * @param change the change, in the transaction that claimed the key: returns its answer, or throws a {@link Refusal}
     */
    public Reply run(String tenantId, IdempotencyKey key, Fingerprint fingerprint, UUID subject, Supplier<StoredResponse> change) {
        try {
            return QuarkusTransaction.requiringNew().call(() -> {
                lockWait.limit(config.idempotency().inFlightWait());
                if (!keys.claim(tenantId, key, fingerprint, new StoredResponse(200, "{}", null, subject))) {
                    return new Reply(keys.replay(tenantId, key, fingerprint), true);
                }
                StoredResponse answer = change.get();
                keys.complete(tenantId, key, answer);
                return new Reply(answer, false);
            });
        } catch (Refusal refused) {
            return QuarkusTransaction.requiringNew().call(() -> {
                lockWait.limit(config.idempotency().inFlightWait());
                return keys.claim(tenantId, key, fingerprint, refused.response())
                        ? new Reply(refused.response(), false)
                        : new Reply(keys.replay(tenantId, key, fingerprint), true);
            });
        }
    }

    /** A refusal to store with the key: its problem as the stored answer. */
    public Refusal refusal(Problem problem) {
        return new Refusal(new StoredResponse(problem.status(), problems.json(problem), null, null));
    }
}
