-- Purchase orders (expected receipts) and backorders. A record's incoming is what its open purchase orders still
-- expect; a reservation may promise units of a line from incoming supply (open purchase orders, and transfers in
-- transit with an expected date) that nobody else was promised, and the receipt of that supply allocates them.
-- Expand-only: new tables, and columns with defaults the previous release neither reads nor writes.

ALTER TABLE stock_records ADD COLUMN incoming bigint NOT NULL DEFAULT 0;
ALTER TABLE stock_records ADD CONSTRAINT stock_records_incoming_non_negative CHECK (incoming >= 0) NOT VALID;
ALTER TABLE stock_records VALIDATE CONSTRAINT stock_records_incoming_non_negative;

CREATE TABLE purchase_orders (
    tenant_id   varchar(64)  NOT NULL,
    id          uuid         NOT NULL,
    sku         varchar(64)  NOT NULL,
    location    varchar(64)  NOT NULL,
    quantity    bigint       NOT NULL,
    received    bigint       NOT NULL DEFAULT 0,
    -- OPEN while units are expected; RECEIVED when all arrived; CLOSED when the rest will not come.
    status      varchar(16)  NOT NULL,
    reference   varchar(128),
    expected_at timestamptz  NOT NULL,
    created_at  timestamptz  NOT NULL,
    updated_at  timestamptz  NOT NULL,
    version     bigint       NOT NULL DEFAULT 1,
    CONSTRAINT purchase_orders_pk PRIMARY KEY (tenant_id, id),
    CONSTRAINT purchase_orders_quantity_range CHECK (quantity BETWEEN 1 AND 1000000000),
    CONSTRAINT purchase_orders_received_within CHECK (received >= 0 AND received <= quantity),
    CONSTRAINT purchase_orders_status_known CHECK (status IN ('OPEN', 'RECEIVED', 'CLOSED')),
    CONSTRAINT purchase_orders_status_agrees CHECK ((status = 'RECEIVED') = (received = quantity))
);
-- The open supply of a sku in expected order: what a backorder is promised against.
CREATE INDEX purchase_orders_open ON purchase_orders (tenant_id, sku, expected_at) WHERE status = 'OPEN';
-- The transfers in transit of a sku: the other open supply.
CREATE INDEX transfers_open_of_sku ON transfers (tenant_id, sku, expected_at) WHERE status = 'IN_TRANSIT';

-- Units of a backordered reservation line waiting for one supply (supply_id: a purchase order or a transfer), or for
-- none (unpromised: supply_id is the nil UUID, promised_at NULL). reserved_at is the reservation's time: receipts
-- allocate in its order.
CREATE TABLE promises (
    tenant_id      varchar(64)  NOT NULL,
    reservation_id uuid         NOT NULL,
    line_no        integer      NOT NULL,
    sku            varchar(64)  NOT NULL,
    location       varchar(64)  NOT NULL,
    supply_id      uuid         NOT NULL,
    quantity       bigint       NOT NULL,
    promised_at    timestamptz,
    reserved_at    timestamptz  NOT NULL,
    CONSTRAINT promises_pk PRIMARY KEY (tenant_id, reservation_id, line_no, supply_id),
    CONSTRAINT promises_quantity_positive CHECK (quantity > 0),
    CONSTRAINT promises_dated CHECK ((promised_at IS NULL) = (supply_id = '00000000-0000-0000-0000-000000000000'))
);
-- A supply's waiting lines in reservation order (a receipt's allocation), and what a supply has promised.
CREATE INDEX promises_of_supply ON promises (tenant_id, supply_id, reserved_at, reservation_id, line_no);

-- A backordered reservation: the hold it takes once all its lines are allocated (seconds), and the units it still waits
-- for. While it waits it does not expire: the expiry claim reads the index below, which holds only reservations that
-- wait for nothing.
ALTER TABLE reservations ADD COLUMN backorder_ttl integer;
ALTER TABLE reservations ADD COLUMN awaiting bigint NOT NULL DEFAULT 0;
CREATE INDEX reservations_held_expiry_ready_idx ON reservations (expires_at) WHERE status = 'HELD' AND awaiting = 0;

-- A purchase order's receipt is a ledger entry of its own kind, naming the order.
ALTER TABLE stock_movements ADD COLUMN purchase_order_id uuid;
ALTER TABLE stock_movements DROP CONSTRAINT stock_movements_kind_known;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_kind_known
    CHECK (kind IN ('opening', 'set', 'adjust', 'confirm', 'fulfil', 'release', 'snapshot',
                    'transfer-out', 'in-transit', 'transfer-in', 'transfer-return', 'purchase-receipt')) NOT VALID;
ALTER TABLE stock_movements VALIDATE CONSTRAINT stock_movements_kind_known;

-- What each backordered line of a reservation waits for, as its answer shows it (JSON, written with the promises).
ALTER TABLE reservations ADD COLUMN backorders text;
