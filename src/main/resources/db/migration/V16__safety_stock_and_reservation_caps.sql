-- Safety stock and low-stock thresholds, per record with a default per location; and tenant settings that cap what
-- one reservation line and one reference may hold. Expand-only: the previous release never reads or writes these
-- columns or the new table (its holds ignore safety stock while a canary runs; docs/operations.md, "Migrations").

-- A location's defaults, taken by its records that have no value of their own.
ALTER TABLE locations ADD COLUMN safety_stock bigint NOT NULL DEFAULT 0
    CONSTRAINT locations_safety_stock_range CHECK (safety_stock BETWEEN 0 AND 1000000000);
ALTER TABLE locations ADD COLUMN low_stock_threshold bigint NOT NULL DEFAULT 0
    CONSTRAINT locations_low_stock_threshold_range CHECK (low_stock_threshold BETWEEN 0 AND 1000000000);

-- own_*: the record's own value, NULL while it takes its location's default. safety_stock and low_stock_threshold:
-- the values in force (own, else the location's), kept on the record so a hold reads no other row.
ALTER TABLE stock_records ADD COLUMN own_safety_stock bigint;
ALTER TABLE stock_records ADD COLUMN own_low_stock_threshold bigint;
ALTER TABLE stock_records ADD COLUMN safety_stock bigint NOT NULL DEFAULT 0;
ALTER TABLE stock_records ADD COLUMN low_stock_threshold bigint NOT NULL DEFAULT 0;

-- Caps per tenant; no row, or a NULL, means no cap.
CREATE TABLE tenant_settings (
    tenant_id              varchar(64) NOT NULL,
    max_line_quantity      integer,
    max_held_per_reference integer,
    version                bigint      NOT NULL DEFAULT 1,
    updated_at             timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenant_settings_pk PRIMARY KEY (tenant_id),
    CONSTRAINT tenant_settings_max_line_quantity_range CHECK (max_line_quantity BETWEEN 1 AND 1000000),
    CONSTRAINT tenant_settings_max_held_per_reference_range CHECK (max_held_per_reference BETWEEN 1 AND 1000000)
);
