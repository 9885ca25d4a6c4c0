-- A new reservation is written by one statement that commits on its own: the idempotency key with its stored answer,
-- the reservation and its lines, its created event and the conditional hold. The statement ends with this check. When
-- the key was claimed but a stock record no longer had the units (SQLSTATE SH001), or the hold emptied a record,
-- whose stock.depleted event the service writes on its transactional path (SH002), it raises, and so rolls every
-- part of the statement back. Returns whether the key was claimed: false means it was already stored (a replay).
-- Expand-only: nothing else calls it, and a release that does not know it keeps running.
CREATE FUNCTION stockhold_hold_check(claimed bigint, held bigint, wanted bigint, emptied bigint) RETURNS boolean
    LANGUAGE plpgsql AS $$
BEGIN
    IF claimed = 0 THEN
        RETURN false;
    END IF;
    IF held < wanted THEN
        RAISE EXCEPTION 'a stock record no longer had the units' USING ERRCODE = 'SH001';
    END IF;
    IF emptied > 0 THEN
        RAISE EXCEPTION 'the hold emptied a stock record' USING ERRCODE = 'SH002';
    END IF;
    RETURN true;
END $$;
