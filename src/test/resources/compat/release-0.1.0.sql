-- Every statement release 0.1.0 (schema V1) runs, with sample values. MigrationCompatibilityTest runs them against
-- the current migrations: while a canary runs, the stable release executes exactly these against the new schema.
-- Add a file per release; delete one only when no running version uses it any more.
SET LOCAL lock_timeout = 5000;
INSERT INTO idempotency_records (tenant_id, idempotency_key, fingerprint, status_code, response_body, location, reservation_id, created_at) VALUES ('compat', 'k1', '\x00'::bytea, 201, '{}', '/v1/reservations/00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000001', now()) ON CONFLICT (tenant_id, idempotency_key) DO NOTHING;
SELECT fingerprint, status_code, response_body, location, reservation_id FROM idempotency_records WHERE tenant_id = 'compat' AND idempotency_key = 'k1';
INSERT INTO stock_items (tenant_id, sku, available) VALUES ('compat', 'A-1', 10) ON CONFLICT (tenant_id, sku) DO UPDATE SET available = EXCLUDED.available;
INSERT INTO reservations (id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at) VALUES ('00000000-0000-0000-0000-000000000001', 'compat', 'HELD', 'k1', now(), now() + interval '1 minute', now());
INSERT INTO reservation_lines (reservation_id, line_no, sku, quantity) VALUES ('00000000-0000-0000-0000-000000000001', 0, 'A-1', 2);
INSERT INTO outbox_events (id, tenant_id, aggregate_id, event_type, payload, created_at, available_at) VALUES ('00000000-0000-0000-0000-0000000000e1', 'compat', '00000000-0000-0000-0000-000000000001', 'dev.stockhold.reservation.created.v1', '{}', now(), now());
UPDATE stock_items SET available = available - 2 WHERE tenant_id = 'compat' AND sku = 'A-1' AND available >= 2;
SELECT sku FROM stock_items WHERE tenant_id = 'compat' AND sku = ANY (ARRAY['A-1']);
SELECT id, tenant_id, status, idempotency_key, created_at, expires_at, updated_at FROM reservations WHERE id = '00000000-0000-0000-0000-000000000001' AND tenant_id = 'compat' FOR UPDATE;
SELECT reservation_id, line_no, sku, quantity FROM reservation_lines WHERE reservation_id = '00000000-0000-0000-0000-000000000001';
UPDATE reservations SET status = 'CANCELLED', updated_at = now() WHERE id = '00000000-0000-0000-0000-000000000001';
UPDATE stock_items SET available = available + 2 WHERE tenant_id = 'compat' AND sku = 'A-1';
SELECT id FROM reservations WHERE status = 'HELD' AND expires_at <= now() ORDER BY expires_at LIMIT 100 FOR UPDATE SKIP LOCKED;
SELECT available FROM stock_items WHERE tenant_id = 'compat' AND sku = 'A-1';
DELETE FROM idempotency_records WHERE (tenant_id, idempotency_key) IN (SELECT tenant_id, idempotency_key FROM idempotency_records WHERE created_at < now() - interval '1 day' ORDER BY created_at LIMIT 500 FOR UPDATE SKIP LOCKED);
UPDATE outbox_events o SET locked_by = 'compat-relay', locked_until = now() + 30000 * interval '1 millisecond' WHERE o.id IN (SELECT c.id FROM outbox_events c WHERE c.status = 'PENDING' AND c.available_at <= now() AND (c.locked_until IS NULL OR c.locked_until < now()) AND NOT EXISTS (SELECT 1 FROM outbox_events e WHERE e.aggregate_id = c.aggregate_id AND e.seq < c.seq AND e.status <> 'PUBLISHED') ORDER BY c.seq LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING o.id, o.seq, o.tenant_id, o.aggregate_id, o.event_type, o.payload, o.attempts, o.created_at;
UPDATE outbox_events SET status = 'PUBLISHED', published_at = now(), locked_by = NULL, locked_until = NULL WHERE id = ANY (ARRAY['00000000-0000-0000-0000-0000000000e1']::uuid[]) AND locked_by = 'compat-relay' AND status = 'PENDING';
UPDATE outbox_events SET attempts = attempts + 1, last_error = 'x', available_at = now(), locked_by = NULL, locked_until = NULL, status = CASE WHEN false OR attempts + 1 >= 10 THEN 'DEAD' ELSE 'PENDING' END WHERE id = '00000000-0000-0000-0000-0000000000e1' AND locked_by = 'compat-relay' AND status = 'PENDING';
UPDATE outbox_events SET locked_by = NULL, locked_until = NULL WHERE status = 'PENDING' AND locked_until < now();
SELECT count(*) FILTER (WHERE status = 'PENDING'), count(*) FILTER (WHERE status = 'DEAD'), coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'PENDING')), 0) FROM outbox_events WHERE status <> 'PUBLISHED' AND ('compat'::text IS NULL OR tenant_id = 'compat');
SELECT id, aggregate_id, event_type, attempts, last_error, created_at FROM outbox_events WHERE status = 'DEAD' AND tenant_id = 'compat' ORDER BY seq LIMIT 100;
UPDATE outbox_events SET status = 'PENDING', attempts = 0, available_at = now(), locked_by = NULL, locked_until = NULL WHERE id = '00000000-0000-0000-0000-0000000000e1' AND tenant_id = 'compat' AND status = 'DEAD';
DELETE FROM outbox_events WHERE id IN (SELECT id FROM outbox_events WHERE status = 'PUBLISHED' AND published_at < now() - interval '7 days' LIMIT 1000 FOR UPDATE SKIP LOCKED);
