-- Stock per (tenant, sku, location) with on hand and held, and locations with an allocation priority.
-- Expand-only: stock_items stays, and while a canary runs the previous release keeps writing it. The two triggers at
-- the end carry the previous release's writes over to stock_records, so both releases guard one truth
-- (docs/operations.md, "Migrations"); they can go in the release after next, with stock_items.
-- New tables lead every primary and unique key with tenant_id (distribution by tenant).

CREATE TABLE locations (
    tenant_id  varchar(64) NOT NULL,
    location   varchar(64) NOT NULL,
    priority   integer     NOT NULL DEFAULT 100,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT locations_pk PRIMARY KEY (tenant_id, location),
    CONSTRAINT locations_priority_range CHECK (priority BETWEEN 0 AND 1000000)
);

CREATE TABLE stock_records (
    tenant_id  varchar(64) NOT NULL,
    sku        varchar(64) NOT NULL,
    location   varchar(64) NOT NULL,
    on_hand    bigint      NOT NULL,
    held       bigint      NOT NULL DEFAULT 0,
    -- Everything admins put in: each set adds new minus old on hand, each adjustment its delta. I2 is audited as
    -- on_hand = received - confirmed quantities, held = HELD quantities.
    received   bigint      NOT NULL,
    -- Rises by one on every admin write (set or adjustment), never on reservations: the ETag of compare-and-set.
    version    bigint      NOT NULL DEFAULT 1,
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT stock_records_pk PRIMARY KEY (tenant_id, sku, location),
    -- I1: held is never negative and never more than on hand, even if application code is wrong.
    CONSTRAINT stock_records_held_non_negative CHECK (held >= 0),
    CONSTRAINT stock_records_available_non_negative CHECK (on_hand - held >= 0)
);
-- GET /v1/items?location=: one location's records in sku order.
CREATE INDEX stock_records_tenant_location_sku_idx ON stock_records (tenant_id, location, sku);

-- The location that serves a line. NULL on lines the previous release wrote: they are held at 'default'.
ALTER TABLE reservation_lines ADD COLUMN location varchar(64);
-- A reservation may hold one sku at several named locations: lines are distinct per (sku, location).
ALTER TABLE reservation_lines DROP CONSTRAINT reservation_lines_distinct_sku;
CREATE UNIQUE INDEX reservation_lines_distinct_sku_location ON reservation_lines (reservation_id, sku, coalesce(location, 'default'));

-- Set by this release when it ends a hold (and moves stock_records itself); NULL when the previous release did.
ALTER TABLE reservations ADD COLUMN status_changed_at timestamptz;

-- The previous release's writes to stock_items, carried over to the 'default' stock record. Its conditional decrement
-- becomes a conditional rise of held (I1 against the real record: a stale stock_items row can refuse, never oversell),
-- its set becomes a set of on hand, and its release is left to the reservation's own trigger below.
CREATE FUNCTION stock_items_carry_over() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    rec stock_records%ROWTYPE;
BEGIN
    IF pg_trigger_depth() > 1 THEN
        RETURN NEW;   -- written by stock_records_mirror_new below
    END IF;
    IF TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM stock_items WHERE tenant_id = NEW.tenant_id AND sku = NEW.sku) THEN
        RETURN NEW;   -- INSERT ... ON CONFLICT DO UPDATE: the update's trigger carries it
    END IF;
    IF TG_OP = 'INSERT' OR NEW.total IS DISTINCT FROM OLD.total OR NEW.available = OLD.available THEN
        -- a set of the free-to-reserve quantity: on hand = available + held
        INSERT INTO stock_records AS s (tenant_id, sku, location, on_hand, held, received)
        VALUES (NEW.tenant_id, NEW.sku, 'default', NEW.available, 0, NEW.available)
        ON CONFLICT (tenant_id, sku, location) DO UPDATE
           SET received = s.received + EXCLUDED.on_hand + s.held - s.on_hand,
               on_hand = EXCLUDED.on_hand + s.held, version = s.version + 1, updated_at = now()
        RETURNING * INTO rec;
        NEW.available := rec.on_hand - rec.held;
    ELSIF NEW.available < OLD.available THEN
        -- a reservation: held rises only if the record has the units (I1)
        UPDATE stock_records SET held = held + (OLD.available - NEW.available), updated_at = now()
         WHERE tenant_id = NEW.tenant_id AND sku = NEW.sku AND location = 'default'
           AND on_hand - held >= OLD.available - NEW.available
        RETURNING * INTO rec;
        IF NOT FOUND THEN
            RETURN NULL;   -- the previous release sees no row updated: insufficient stock, nothing changes
        END IF;
        NEW.available := rec.on_hand - rec.held;
    ELSE
        -- a release by cancel or expiry: reservations_carry_over returns the units when the status changes
        SELECT * INTO rec FROM stock_records WHERE tenant_id = NEW.tenant_id AND sku = NEW.sku AND location = 'default';
        IF FOUND THEN
            NEW.available := rec.on_hand - rec.held + (NEW.available - OLD.available);
        END IF;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER stock_items_carry_over BEFORE INSERT OR UPDATE ON stock_items
    FOR EACH ROW EXECUTE FUNCTION stock_items_carry_over();

-- A 'default' record this release creates gets its stock_items row, so the previous release knows the sku.
CREATE FUNCTION stock_records_mirror_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF pg_trigger_depth() = 1 AND NEW.location = 'default' THEN
        INSERT INTO stock_items (tenant_id, sku, available) VALUES (NEW.tenant_id, NEW.sku, NEW.on_hand - NEW.held)
        ON CONFLICT (tenant_id, sku) DO NOTHING;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER stock_records_mirror_new AFTER INSERT ON stock_records
    FOR EACH ROW EXECUTE FUNCTION stock_records_mirror_new();

-- The previous release ending a hold (it leaves status_changed_at NULL): confirm sells the units, cancel and expiry
-- release them, at the line's location.
CREATE FUNCTION reservations_carry_over() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'HELD' AND NEW.status <> 'HELD' AND NEW.status_changed_at IS NULL THEN
        UPDATE stock_records s
           SET held = s.held - l.quantity,
               on_hand = s.on_hand - CASE WHEN NEW.status = 'CONFIRMED' THEN l.quantity ELSE 0 END,
               updated_at = now()
          FROM reservation_lines l
         WHERE l.reservation_id = NEW.id AND s.tenant_id = NEW.tenant_id AND s.sku = l.sku
           AND s.location = coalesce(l.location, 'default');
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER reservations_carry_over AFTER UPDATE OF status ON reservations
    FOR EACH ROW EXECUTE FUNCTION reservations_carry_over();

-- Backfill, with the previous release's stock writers paused for the length of this migration's transaction: a
-- writer that was in flight commits first (and is counted), one that comes after meets the triggers.
LOCK TABLE stock_items IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO stock_records (tenant_id, sku, location, on_hand, held, received)
SELECT s.tenant_id, s.sku, 'default', s.available + h.held, h.held, s.available + h.held + h.confirmed
  FROM stock_items s
 CROSS JOIN LATERAL (
       SELECT coalesce(sum(l.quantity) FILTER (WHERE r.status = 'HELD'), 0) AS held,
              coalesce(sum(l.quantity) FILTER (WHERE r.status = 'CONFIRMED'), 0) AS confirmed
         FROM reservation_lines l JOIN reservations r ON r.id = l.reservation_id
        WHERE r.tenant_id = s.tenant_id AND l.sku = s.sku) h
ON CONFLICT DO NOTHING;
