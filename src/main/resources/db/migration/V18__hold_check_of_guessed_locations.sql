-- The one-statement reservation may place a line without a location on a guessed record: the record its sku's first
-- record in allocation order was when the replica last read them, so that no allocation read precedes the statement.
-- The statement counts the guessed lines whose sku's first record in allocation order is not at the guessed location
-- (another comes first, or the sku has no record there) and passes that count here: any such line raises SQLSTATE
-- SH003, which rolls every part of the statement back, and the service reads the records and places the request again. The other checks are those of the
-- four-argument function, which this one calls. Expand-only: an overload beside the old function, which the previous release keeps calling.
CREATE FUNCTION stockhold_hold_check(claimed bigint, held bigint, wanted bigint, emptied bigint, misplaced bigint) RETURNS boolean
    LANGUAGE plpgsql AS $$
BEGIN
    IF claimed > 0 AND misplaced > 0 THEN
        RAISE EXCEPTION 'a line''s guessed location is no longer its sku''s first record' USING ERRCODE = 'SH003';
    END IF;
    RETURN stockhold_hold_check(claimed, held, wanted, emptied);
END $$;
