/**
 * Stockhold: multi-tenant inventory reservations with idempotency keys and a transactional outbox. The root package
 * holds what every feature shares: the settings ({@link dev.stockhold.StockholdConfig}), the transaction helpers
 * ({@link dev.stockhold.AfterCommit}, {@link dev.stockhold.LockWait}), batch draining, the outcome log and the
 * cause-chain walk. Features live in their own packages and depend on each other only downwards (ArchitectureTest).
 */
package dev.stockhold;
