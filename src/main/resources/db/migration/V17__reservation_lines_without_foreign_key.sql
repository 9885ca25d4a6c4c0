-- reservation_lines loses its foreign key to reservations. Every line is written in the statement (or transaction)
-- that writes its reservation, and no reservation is ever deleted, so the key checked nothing the writes do not
-- already guarantee; but it checked it on every line with a lookup PostgreSQL plans once per connection and keeps.
-- A connection that first wrote while reservations was small (statistics from an empty table, autovacuum off or
-- not yet run) kept a sequential scan for that lookup: every new reservation then read every reservation ever made,
-- and PostgreSQL's CPU per reservation grew with the store (docs/operations.md, "Statements whose plan cannot go
-- wrong"). Expand-only: the previous release never relies on the key (it deletes no reservation and catches no
-- foreign-key violation), so it runs unchanged beside this schema while a canary runs.
ALTER TABLE reservation_lines DROP CONSTRAINT IF EXISTS reservation_lines_reservation_id_fkey;
