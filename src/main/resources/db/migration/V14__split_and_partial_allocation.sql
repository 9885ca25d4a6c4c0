-- Split and partial allocation (a request's "allocation"): a line without a location may be served by several
-- records, one reservation line per record as before, and a partial request may get less than it asked for. The
-- reservation keeps how it was allocated and the lines it was asked for, so its answer (and every later GET) groups the
-- held lines by the request's lines and shows each one's shortfall. Both stay NULL for a whole allocation, which is
-- every reservation the previous release writes: it never reads them.
ALTER TABLE reservations ADD COLUMN allocation varchar(8);
ALTER TABLE reservations ADD CONSTRAINT reservations_allocation_known CHECK (allocation IN ('split', 'partial'));
-- A JSON array of the request's lines ({"sku","quantity"} and "location" where one was named), in request order.
ALTER TABLE reservations ADD COLUMN requested_lines text;
