-- The movement ledger (docs/api.md, "Movements"): one entry per change of a stock record's on hand or committed, written
-- by the statement that makes the change, so an entry exists exactly when the change committed. Holds are not entries:
-- reservation lines record them, and the reservation path gains no write.
CREATE TABLE stock_movements (
    tenant_id        varchar(64)   NOT NULL,
    sku              varchar(64)   NOT NULL,
    location         varchar(64)   NOT NULL,
    -- Contiguous per record from 1: stock_records.movements is the last one given.
    seq              bigint        NOT NULL,
    kind             varchar(16)   NOT NULL,
    on_hand_delta    bigint        NOT NULL,
    committed_delta  bigint        NOT NULL,
    on_hand_after    bigint        NOT NULL,
    committed_after  bigint        NOT NULL,
    -- The record's version after the change (admin writes raise it; reservation moves do not).
    version          bigint        NOT NULL,
    reason           varchar(64),
    reference        varchar(2048),
    actor            varchar(255),
    reservation_id   uuid,
    idempotency_key  varchar(255),
    created_at       timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT stock_movements_pk PRIMARY KEY (tenant_id, sku, location, seq),
    CONSTRAINT stock_movements_kind_known CHECK (kind IN ('opening', 'set', 'adjust', 'confirm', 'fulfil', 'release')),
    CONSTRAINT stock_movements_seq_positive CHECK (seq > 0)
);

-- The last entry's seq of each record (0: none yet).
ALTER TABLE stock_records ADD COLUMN movements bigint NOT NULL DEFAULT 0;

-- Every record that exists now opens its ledger with what it holds, so the sum of a record's entries equals its on hand
-- and committed from the first entry on. Admin writes are paused for this transaction, as in V7.
LOCK TABLE stock_records IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO stock_movements (tenant_id, sku, location, seq, kind, on_hand_delta, committed_delta, on_hand_after, committed_after,
                             version, created_at)
SELECT tenant_id, sku, location, 1, 'opening', on_hand, committed, on_hand, committed, version, now()
  FROM stock_records;
UPDATE stock_records SET movements = 1;
