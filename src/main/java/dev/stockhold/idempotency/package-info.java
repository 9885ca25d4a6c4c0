/**
 * Idempotency keys: the header's two forms, the request fingerprint, and the stored outcome a key answers with on every
 * retry. {@link dev.stockhold.idempotency.IdempotencyRepository} is the idempotency_records table: one row per (tenant,
 * key), claimed in the transaction that does the work, so a key is executed at most once (I3).
 * {@link dev.stockhold.idempotency.OncePerKey} runs a change whose answer is known only after its effects (adjustments,
 * fulfilments and releases, edits) under that rule, refusals stored too.
 */
package dev.stockhold.idempotency;
