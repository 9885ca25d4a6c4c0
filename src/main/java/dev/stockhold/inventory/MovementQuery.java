package dev.stockhold.inventory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.stockhold.web.Cursors;
import dev.stockhold.web.Params;
import dev.stockhold.web.ValidationFailedException;

/**
 * One page request of GET /v1/items/{sku}/stock/{location}/movements: the record's entries newest first, optionally in
 * a time window ({@code from} inclusive, {@code to} exclusive) and of one kind. It walks the ledger's primary key
 * backwards from the cursor's seq: no OFFSET, and a page costs the entries it reads.
 */
public record MovementQuery(String tenantId, StockKey at, Instant from, Instant to, String kind, int limit, Long before) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;
    /** Every kind of entry, in the order the refusal lists them (the OpenAPI enums of ItemResource and Movement too). */
    static final List<String> KINDS = List.of("opening", "set", "adjust", "confirm", "fulfil", "release", "snapshot", "transfer-out",
            "in-transit", "transfer-in", "transfer-return", "purchase-receipt");

    /** Reads and validates the query parameters; every broken one is a 400 that names it. */
    public static MovementQuery of(String tenantId, StockKey at, String from, String to, String kind, String limit, String cursor,
            Cursors cursors) {
        if (kind != null && !KINDS.contains(kind)) {
            throw new ValidationFailedException("kind", "must be one of " + String.join(", ", KINDS));
        }
        MovementQuery query = new MovementQuery(tenantId, at, Params.instant("from", from), Params.instant("to", to), kind,
                Params.integer("limit", limit, 1, MAX_LIMIT, DEFAULT_LIMIT), null);
        if (cursor == null) {
            return query;
        }
        List<String> position = cursors.decode(query.binding(), cursor, 1);
        try {
            return new MovementQuery(tenantId, at, query.from, query.to, kind, query.limit, Long.parseLong(position.get(0)));
        } catch (NumberFormatException e) {
            throw Cursors.invalid();
        }
    }

    /** The cursor that continues after (older than) {@code last}. */
    public String encode(Movement last, Cursors cursors) {
        return cursors.encode(binding(), List.of(Long.toString(last.seq())));
    }

    /** Whether this page starts at the record's newest entry: no cursor, no upper bound, every kind. */
    public boolean startsAtNewest() {
        return before == null && to == null && kind == null;
    }

    /** A cursor for the time of {@code newest}, the record's newest entry, valid for snapshots at its location. */
    public String watermark(Movement newest, Cursors cursors) {
        return cursors.encode(watermarkBinding(tenantId, at.location()), List.of(newest.at().toString()));
    }

    /** The time a {@link #watermark} names; 400 validation-failed when it is not one for this tenant and location. */
    public static Instant watermarkTime(Cursors cursors, String tenantId, String location, String cursor) {
        List<String> position = cursors.decode(watermarkBinding(tenantId, location), cursor, 1);
        try {
            return Instant.parse(position.get(0));
        } catch (java.time.format.DateTimeParseException e) {
            throw Cursors.invalid();
        }
    }

    private static List<String> watermarkBinding(String tenantId, String location) {
        return List.of("watermark", tenantId, location);
    }

    String sql() {
        StringBuilder where = new StringBuilder("tenant_id = ? AND sku = ? AND location = ?");
        if (before != null) {
            where.append(" AND seq < ?");
        }
        if (from != null) {
            where.append(" AND created_at >= ?");
        }
        if (to != null) {
            where.append(" AND created_at < ?");
        }
        if (kind != null) {
            where.append(" AND kind = ?");
        }
        return "SELECT " + MovementLedger.COLUMNS + " FROM stock_movements WHERE " + where + " ORDER BY seq DESC LIMIT ?";
    }

    List<Object> arguments() {
        List<Object> args = new ArrayList<>(List.of(tenantId, at.sku(), at.location()));
        if (before != null) {
            args.add(before);
        }
        if (from != null) {
            args.add(java.sql.Timestamp.from(from));
        }
        if (to != null) {
            args.add(java.sql.Timestamp.from(to));
        }
        if (kind != null) {
            args.add(kind);
        }
        args.add(limit + 1);
        return args;
    }

    private List<String> binding() {
        return List.of("movements", tenantId, at.sku(), at.location(), String.valueOf(from), String.valueOf(to), String.valueOf(kind));
    }
}
