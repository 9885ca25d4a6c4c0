-- Editing a HELD reservation (PATCH with If-Match): every change of a reservation raises its version, its ETag. The
-- previous release leaves it as it is when it changes a reservation; a client that read the ETag from this release
-- then gets 412 only where this release changed the reservation since, never a lost edit (a PATCH runs under the
-- reservation's row lock and compares the version there).
ALTER TABLE reservations ADD COLUMN version bigint NOT NULL DEFAULT 1;

-- The ETag header of a stored answer (a PATCH's), replayed with it; NULL for every other answer.
ALTER TABLE idempotency_records ADD COLUMN etag varchar(32);
