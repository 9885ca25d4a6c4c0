-- Channels: a tenant's named, ordered groups of locations. A request that names a channel is allocated and totalled
-- over its locations only, in the channel's order. A location may be in several channels.
-- Expand-only: a new table and a nullable column the previous release neither reads nor writes.
CREATE TABLE channels (
    tenant_id  varchar(64)   NOT NULL,
    channel    varchar(64)   NOT NULL,
    -- In allocation order; distinct, and each a location of the tenant when it was written.
    locations  varchar(64)[] NOT NULL,
    -- Rises by one on every write: the ETag of compare-and-set.
    version    bigint        NOT NULL DEFAULT 1,
    updated_at timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT channels_pk PRIMARY KEY (tenant_id, channel),
    CONSTRAINT channels_locations_bounded CHECK (cardinality(locations) BETWEEN 1 AND 100)
);

-- The channel a reservation was allocated through; NULL for a request that named none.
ALTER TABLE reservations ADD COLUMN channel varchar(64);
