-- Stockhold reservation core. Flyway owns the schema; never edit this file once landed.

-- Free-to-reserve stock per (tenant, sku).
CREATE TABLE stock_items (
    tenant_id  varchar(64) NOT NULL,
    sku        varchar(64) NOT NULL,
    available  bigint      NOT NULL,
    CONSTRAINT stock_items_pk PRIMARY KEY (tenant_id, sku),
    -- I1: available is never negative, even if application code is wrong.
    CONSTRAINT stock_items_available_non_negative CHECK (available >= 0)
);

CREATE TABLE reservations (
    id              uuid         NOT NULL,
    tenant_id       varchar(64)  NOT NULL,
    status          varchar(16)  NOT NULL,
    idempotency_key varchar(255) NOT NULL,
    created_at      timestamptz  NOT NULL,
    expires_at      timestamptz  NOT NULL,
    updated_at      timestamptz  NOT NULL,
    CONSTRAINT reservations_pk PRIMARY KEY (id),
    CONSTRAINT reservations_status_known CHECK (status IN ('HELD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'))
);
-- The expiry job's claim: only HELD rows, oldest deadline first.
CREATE INDEX reservations_held_expiry_idx ON reservations (expires_at) WHERE status = 'HELD';
CREATE INDEX reservations_tenant_idx ON reservations (tenant_id, created_at);

CREATE TABLE reservation_lines (
    reservation_id uuid        NOT NULL REFERENCES reservations (id) ON DELETE CASCADE,
    line_no        integer     NOT NULL,
    sku            varchar(64) NOT NULL,
    quantity       integer     NOT NULL,
    CONSTRAINT reservation_lines_pk PRIMARY KEY (reservation_id, line_no),
    CONSTRAINT reservation_lines_distinct_sku UNIQUE (reservation_id, sku),
    CONSTRAINT reservation_lines_quantity_positive CHECK (quantity > 0)
);

-- One row per executed POST /v1/reservations: the stored outcome a retry replays.
CREATE TABLE idempotency_records (
    tenant_id       varchar(64)  NOT NULL,
    idempotency_key varchar(255) NOT NULL,
    fingerprint     bytea        NOT NULL,
    status_code     smallint     NOT NULL,
    response_body   text         NOT NULL,
    location        varchar(255),
    reservation_id  uuid,
    created_at      timestamptz  NOT NULL DEFAULT now(),
    -- I3: at most one outcome per (tenant, key) while the key is retained.
    CONSTRAINT idempotency_records_pk PRIMARY KEY (tenant_id, idempotency_key)
);
CREATE INDEX idempotency_records_created_idx ON idempotency_records (created_at);

-- Transactional outbox: written in the state change's transaction, published by the relay.
CREATE TABLE outbox_events (
    id           uuid         NOT NULL,
    seq          bigint       GENERATED ALWAYS AS IDENTITY,
    tenant_id    varchar(64)  NOT NULL,
    aggregate_id uuid         NOT NULL,
    event_type   varchar(100) NOT NULL,
    payload      jsonb        NOT NULL,
    status       varchar(16)  NOT NULL DEFAULT 'PENDING',
    attempts     integer      NOT NULL DEFAULT 0,
    available_at timestamptz  NOT NULL DEFAULT now(),
    locked_by    varchar(128),
    locked_until timestamptz,
    last_error   text,
    created_at   timestamptz  NOT NULL DEFAULT now(),
    published_at timestamptz,
    CONSTRAINT outbox_events_pk PRIMARY KEY (id),
    CONSTRAINT outbox_events_seq_unique UNIQUE (seq),
    CONSTRAINT outbox_events_status_known CHECK (status IN ('PENDING', 'PUBLISHED', 'DEAD'))
);
-- Claimable rows only: the index stays as small as the backlog, not the history.
CREATE INDEX outbox_events_claimable_idx ON outbox_events (available_at, seq) WHERE status = 'PENDING';
-- Per-reservation ordering checks look at unpublished events of one aggregate.
CREATE INDEX outbox_events_unpublished_aggregate_idx ON outbox_events (aggregate_id, seq) WHERE status <> 'PUBLISHED';
-- Retention cleanup of published rows.
CREATE INDEX outbox_events_published_idx ON outbox_events (published_at) WHERE status = 'PUBLISHED';
