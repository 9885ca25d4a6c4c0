-- The relay claims pending events in write order (seq). The claimable index of V1 was ordered by available_at, so
-- under a backlog the claim read every pending row, checked each against its aggregate's earlier events and sorted
-- them all to keep 100: 190 ms per claim at 26,000 pending, slower than events arrived, so the backlog only grew.
-- Ordered by seq, the claim stops after its batch (OutboxStore.CLAIM_PLAN keeps the planner on this index even when
-- the table's statistics still say that pending rows are rare).
-- Safe beside the previous release (contract §8): its claim, unchanged, still finds the same rows in the same order;
-- only without the plan guarantee.
CREATE INDEX outbox_events_pending_seq_idx ON outbox_events (seq) WHERE status = 'PENDING';
DROP INDEX outbox_events_claimable_idx;
