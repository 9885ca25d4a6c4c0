-- Reservations carry the client's reference (order or cart id) and free metadata, and are listed newest first with
-- keyset pagination: one index per list shape, each leading with tenant_id, so a page is an index range scan.
-- Expand-only: nullable columns and new indexes; the previous release's statements run unchanged
-- (MigrationCompatibilityTest).
ALTER TABLE reservations ADD COLUMN reference varchar(128);
-- The client's string-to-string pairs, as a JSON object (text: stored and returned as given, never queried).
ALTER TABLE reservations ADD COLUMN metadata text;

CREATE INDEX reservations_tenant_created_id_idx ON reservations (tenant_id, created_at DESC, id DESC);
CREATE INDEX reservations_tenant_status_created_id_idx ON reservations (tenant_id, status, created_at DESC, id DESC);
CREATE INDEX reservations_tenant_reference_created_id_idx ON reservations (tenant_id, reference, created_at DESC, id DESC)
    WHERE reference IS NOT NULL;
