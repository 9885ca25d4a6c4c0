-- The fulfilment stage (docs/api.md, "Fulfilment"): a reservation made with "fulfilment": "deferred" moves its lines
-- from held to committed on confirm, leaving on hand alone; fulfilments lower committed and on hand, releases lower
-- committed only. Expand-only: every new column has a default the previous release never has to write, and the
-- previous release never makes a deferred reservation, so its confirms keep selling at once.

-- Units of confirmed deferred reservations not yet fulfilled or released. available = on_hand - held - committed.
ALTER TABLE stock_records ADD COLUMN committed bigint NOT NULL DEFAULT 0;
-- I1 with committed: neither is negative, and together with held never more than on hand.
ALTER TABLE stock_records ADD CONSTRAINT stock_records_committed_non_negative CHECK (committed >= 0);
ALTER TABLE stock_records ADD CONSTRAINT stock_records_reservable_non_negative CHECK (on_hand - held - committed >= 0);

-- NULL: the confirm sells at once (every reservation before this release, and every request without the field).
ALTER TABLE reservations ADD COLUMN fulfilment varchar(16);
ALTER TABLE reservations ADD CONSTRAINT reservations_fulfilment_known CHECK (fulfilment IN ('deferred'));
-- A wider set of statuses: the previous release writes only the four it knows. PARTIALLY_FULFILLED is 19 characters:
-- widening a varchar rewrites neither the table nor its indexes. PostgreSQL will not alter a column that triggers name,
-- so the two status triggers are dropped and created again as they were, in this migration's one transaction.
DROP TRIGGER reservations_carry_over ON reservations;
DROP TRIGGER reservations_count_sold ON reservations;
ALTER TABLE reservations ALTER COLUMN status TYPE varchar(24);
CREATE TRIGGER reservations_carry_over AFTER UPDATE OF status ON reservations
    FOR EACH ROW EXECUTE FUNCTION reservations_carry_over();
CREATE TRIGGER reservations_count_sold AFTER UPDATE OF status ON reservations
    FOR EACH ROW WHEN (OLD.status = 'HELD' AND NEW.status = 'CONFIRMED') EXECUTE FUNCTION reservations_count_sold();
ALTER TABLE reservations DROP CONSTRAINT reservations_status_known;
ALTER TABLE reservations ADD CONSTRAINT reservations_status_known
    CHECK (status IN ('HELD', 'CONFIRMED', 'CANCELLED', 'EXPIRED', 'PARTIALLY_FULFILLED', 'FULFILLED'));

-- Per line of a deferred reservation: units fulfilled and units released; committed is quantity - fulfilled - released.
ALTER TABLE reservation_lines ADD COLUMN fulfilled integer NOT NULL DEFAULT 0;
ALTER TABLE reservation_lines ADD COLUMN released integer NOT NULL DEFAULT 0;
ALTER TABLE reservation_lines ADD CONSTRAINT reservation_lines_settled_within_quantity
    CHECK (fulfilled >= 0 AND released >= 0 AND fulfilled + released <= quantity);

-- The auditor's sold total (I2: on_hand = received - sold) counts a confirm only when it sells; a deferred
-- reservation's units count when they are fulfilled, from the lines, by the database rather than the code that lowers
-- on hand (V8's reasoning).
CREATE OR REPLACE FUNCTION reservations_count_sold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.fulfilment IS NULL THEN
        UPDATE stock_records s
           SET sold = s.sold + l.quantity
          FROM reservation_lines l
         WHERE l.reservation_id = NEW.id AND s.tenant_id = NEW.tenant_id AND s.sku = l.sku
           AND s.location = coalesce(l.location, 'default');
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION reservation_lines_count_fulfilled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stock_records s
       SET sold = s.sold + (NEW.fulfilled - OLD.fulfilled)
      FROM reservations r
     WHERE r.id = NEW.reservation_id AND s.tenant_id = r.tenant_id AND s.sku = NEW.sku
       AND s.location = coalesce(NEW.location, 'default');
    RETURN NULL;
END $$;
CREATE TRIGGER reservation_lines_count_fulfilled AFTER UPDATE OF fulfilled ON reservation_lines
    FOR EACH ROW WHEN (NEW.fulfilled <> OLD.fulfilled) EXECUTE FUNCTION reservation_lines_count_fulfilled();

-- The open commitments of a tenant, for the auditor's committed check: it reads open commitments, never history.
CREATE INDEX reservations_committed_tenant_idx ON reservations (tenant_id)
    WHERE status IN ('CONFIRMED', 'PARTIALLY_FULFILLED') AND fulfilment IS NOT NULL;
