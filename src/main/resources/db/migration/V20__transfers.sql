-- Transfers: units shipped from one location to another. Shipping takes them off on hand at the origin and counts them
-- as in transit at the destination; receipts (partial allowed) move them to on hand there; a cancel returns what was
-- not received to the origin. Expand-only: new columns with defaults the previous release never reads, a new table,
-- and a wider ledger check (added NOT VALID, then validated, as in V15).

-- Units shipped to this record and not yet received or returned. I2 extends to it: the sum over a tenant's records of
-- received + in_transit changes only by admin writes and sales, never by a transfer.
ALTER TABLE stock_records ADD COLUMN in_transit bigint NOT NULL DEFAULT 0;
ALTER TABLE stock_records ADD CONSTRAINT stock_records_in_transit_non_negative CHECK (in_transit >= 0) NOT VALID;
ALTER TABLE stock_records VALIDATE CONSTRAINT stock_records_in_transit_non_negative;

CREATE TABLE transfers (
    tenant_id     varchar(64)  NOT NULL,
    id            uuid         NOT NULL,
    sku           varchar(64)  NOT NULL,
    from_location varchar(64)  NOT NULL,
    to_location   varchar(64)  NOT NULL,
    quantity      bigint       NOT NULL,
    received      bigint       NOT NULL DEFAULT 0,
    -- Units a cancel returned to the origin.
    returned      bigint       NOT NULL DEFAULT 0,
    status        varchar(16)  NOT NULL,
    reference     varchar(128),
    expected_at   timestamptz,
    created_at    timestamptz  NOT NULL,
    updated_at    timestamptz  NOT NULL,
    -- Rises on every receipt and on the cancel: the ETag.
    version       bigint       NOT NULL DEFAULT 1,
    CONSTRAINT transfers_pk PRIMARY KEY (tenant_id, id),
    CONSTRAINT transfers_distinct_ends CHECK (from_location <> to_location),
    CONSTRAINT transfers_quantity_range CHECK (quantity BETWEEN 1 AND 1000000000),
    -- nothing is received or returned twice: what is left in transit is never negative
    CONSTRAINT transfers_accounted CHECK (received >= 0 AND returned >= 0 AND received + returned <= quantity),
    CONSTRAINT transfers_status_known CHECK (status IN ('IN_TRANSIT', 'RECEIVED', 'CANCELLED')),
    -- the status follows from the units: in transit while some are left, received or cancelled when none are
    CONSTRAINT transfers_status_agrees CHECK ((status = 'IN_TRANSIT') = (received + returned < quantity)
                                              AND (status <> 'CANCELLED' OR returned > 0) AND (status <> 'RECEIVED' OR returned = 0))
);
-- The transfers still in transit to a record: what its in_transit must equal (the auditor's check), and later the
-- incoming supply at a destination.
CREATE INDEX transfers_open_to ON transfers (tenant_id, sku, to_location) WHERE status = 'IN_TRANSIT';

-- Entries of a transfer name it, and record the change of in transit (0 for every other kind).
ALTER TABLE stock_movements ADD COLUMN in_transit_delta bigint NOT NULL DEFAULT 0;
ALTER TABLE stock_movements ADD COLUMN transfer_id uuid;
ALTER TABLE stock_movements DROP CONSTRAINT stock_movements_kind_known;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_kind_known
    CHECK (kind IN ('opening', 'set', 'adjust', 'confirm', 'fulfil', 'release', 'snapshot',
                    'transfer-out', 'in-transit', 'transfer-in', 'transfer-return')) NOT VALID;
ALTER TABLE stock_movements VALIDATE CONSTRAINT stock_movements_kind_known;
