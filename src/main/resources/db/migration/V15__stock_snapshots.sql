-- Snapshots: counts from a warehouse system, each taken at a time of its own (asOf). A record keeps the asOf of the
-- newest count applied to it, so a count that arrives after a newer one is skipped instead of undoing it. NULL: no
-- count applied yet. The previous release never reads or writes it.
ALTER TABLE stock_records ADD COLUMN counted_at timestamptz;

-- A count's correction of on hand is a ledger entry of its own kind. The wider check is added NOT VALID and then
-- validated, so the ledger is not locked against writes while its rows are checked.
ALTER TABLE stock_movements DROP CONSTRAINT stock_movements_kind_known;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_kind_known
    CHECK (kind IN ('opening', 'set', 'adjust', 'confirm', 'fulfil', 'release', 'snapshot')) NOT VALID;
ALTER TABLE stock_movements VALIDATE CONSTRAINT stock_movements_kind_known;
