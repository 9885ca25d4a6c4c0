-- The invariant auditor's running total (I2): units sold by confirms at each stock record. The database keeps it
-- from the reservation lines when a reservation turns CONFIRMED (whichever release confirms), never the code that
-- lowers on hand, so on_hand = received - sold is a check between two independent writers that reads one row,
-- instead of summing every CONFIRMED line of history.
ALTER TABLE stock_records ADD COLUMN sold bigint NOT NULL DEFAULT 0;

CREATE FUNCTION reservations_count_sold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stock_records s
       SET sold = s.sold + l.quantity
      FROM reservation_lines l
     WHERE l.reservation_id = NEW.id AND s.tenant_id = NEW.tenant_id AND s.sku = l.sku
       AND s.location = coalesce(l.location, 'default');
    RETURN NULL;
END $$;
CREATE TRIGGER reservations_count_sold AFTER UPDATE OF status ON reservations
    FOR EACH ROW WHEN (OLD.status = 'HELD' AND NEW.status = 'CONFIRMED') EXECUTE FUNCTION reservations_count_sold();

-- Backfill with confirms paused for this transaction: one in flight commits first and is counted here, one that
-- comes after meets the trigger.
LOCK TABLE reservations IN SHARE ROW EXCLUSIVE MODE;
UPDATE stock_records s
   SET sold = c.quantity
  FROM (SELECT r.tenant_id, l.sku, coalesce(l.location, 'default') AS location, sum(l.quantity) AS quantity
          FROM reservations r JOIN reservation_lines l ON l.reservation_id = r.id
         WHERE r.status = 'CONFIRMED'
         GROUP BY 1, 2, 3) c
 WHERE s.tenant_id = c.tenant_id AND s.sku = c.sku AND s.location = c.location;

-- The HELD reservations of a tenant, for the auditor's held check: it reads active holds, never history.
CREATE INDEX reservations_held_tenant_idx ON reservations (tenant_id) WHERE status = 'HELD';
