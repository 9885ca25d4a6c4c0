-- Dead events, per tenant in write order: the admin list, the bulk requeue's batches and the dead gauge read this
-- index instead of the table, so their cost follows the number of dead events, not the retained history.
-- Expand-only: an index the previous release simply does not use.
CREATE INDEX outbox_events_dead_tenant_seq_idx ON outbox_events (tenant_id, seq) WHERE status = 'DEAD';
