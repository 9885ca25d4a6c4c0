-- The CloudEvents sequence of each aggregate's events (docs/events.md): the last sequence given to an aggregate,
-- raised in the transaction that writes its next event, so a sequence is assigned once and every redelivery carries
-- it. A reservation's created event is its sequence 1 and writes no row here (the reservation path stays one statement);
-- the counter of its later events starts after it.
CREATE TABLE event_sequences (
    aggregate_id  uuid        PRIMARY KEY,
    tenant_id     varchar(64) NOT NULL,
    last_sequence bigint      NOT NULL CHECK (last_sequence > 0)
);

-- The Kafka key and CloudEvents partitionkey of each event, written with it; NULL on rows an earlier release wrote,
-- whose key the relay derives as that release did.
ALTER TABLE outbox_events ADD COLUMN partition_key text;
