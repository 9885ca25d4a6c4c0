-- The outbox payload is the CloudEvents JSON exactly as the relay publishes it: text, not jsonb (jsonb reorders
-- keys and reformats, and parsing it on every insert costs the hot path). Widening only: any writer that sends text
-- or jsonb still works (jsonb is assignable to text), so a release on the older schema keeps running.
ALTER TABLE outbox_events ALTER COLUMN payload TYPE text;
COMMENT ON COLUMN outbox_events.payload IS 'CloudEvents structured JSON, byte for byte as published';
