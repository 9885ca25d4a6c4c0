-- Expand-only (contract §8 rollouts): new nullable columns and indexes; the previous release's statements keep
-- working unchanged against this schema (MigrationCompatibilityTest proves it).

-- The quantity admins put in, per sku: available + HELD/CONFIRMED quantities must equal it (I2, audited).
-- Nullable: rows written by a release that does not maintain it are skipped by the auditor, not misreported.
ALTER TABLE stock_items ADD COLUMN total bigint;
UPDATE stock_items s
   SET total = s.available + coalesce((
       SELECT sum(l.quantity) FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
        WHERE r.tenant_id = s.tenant_id AND l.sku = s.sku AND r.status IN ('HELD', 'CONFIRMED')), 0);

-- The auditor sums one sku's held quantities.
CREATE INDEX reservation_lines_sku_idx ON reservation_lines (sku);

-- W3C trace context of the request that wrote the event, sent with it so one trace spans HTTP, database and broker.
ALTER TABLE outbox_events ADD COLUMN traceparent varchar(55);
