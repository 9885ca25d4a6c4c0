/**
 * The transactional outbox and its relay: events written in the transaction of the change they describe
 * ({@link dev.stockhold.outbox.OutboxWriter}), claimed under leases by any number of relays, published as CloudEvents to
 * RabbitMQ or Kafka with confirms, retried with backoff, buried as DEAD after the last attempt, and administered by the
 * ops endpoints. All SQL on outbox_events is {@link dev.stockhold.outbox.OutboxDialect}, run by {@link dev.stockhold.outbox.OutboxJdbc}: the
 * write that joins the change's transaction ({@link dev.stockhold.outbox.OutboxPersistor}) apart from the relay's
 * ({@link dev.stockhold.outbox.RelayStore}) and the operators' ({@link dev.stockhold.outbox.OutboxBacklog},
 * {@link dev.stockhold.outbox.DeadEvents}) statements, each its own transaction.
 */
package dev.stockhold.outbox;
