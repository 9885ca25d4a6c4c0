/**
 * The transactional outbox and its relay: events written in the transaction of the change they describe
 * ({@link dev.stockhold.outbox.OutboxWriter}), claimed under leases by any number of relays, published as CloudEvents to
 * RabbitMQ or Kafka with confirms, retried with backoff, buried as DEAD after the last attempt, and administered by the
 * ops endpoints. All SQL on outbox_events is {@link dev.stockhold.outbox.OutboxRepository}.
 */
package dev.stockhold.outbox;
