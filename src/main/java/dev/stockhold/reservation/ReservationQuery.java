package dev.stockhold.reservation;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.stockhold.idempotency.IdempotencyKey;
import dev.stockhold.inventory.Sku;
import dev.stockhold.web.Cursors;
import dev.stockhold.web.Params;
import dev.stockhold.web.ValidationFailedException;

/**
 * One page request of GET /v1/reservations: its filters, its position, and the SQL of its shape. Every shape walks
 * one index that leads with tenant_id and ends in (created_at DESC, id DESC) (V6), so a page is a range scan that
 * stops after {@code limit} rows: no OFFSET, no sort. The cursor is opaque to clients and bound to the tenant and the
 * filters by a checksum, so a cursor that was altered, or that belongs to other filters or another tenant, is refused.
 */
public record ReservationQuery(String tenantId, ReservationStatus status, String sku, String reference, String idempotencyKey,
        Instant createdFrom, Instant createdTo, int limit, Position after) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    /** Where the previous page ended: the last item's creation time and id. */
    public record Position(Instant createdAt, UUID id) {
    }

    /** Reads and validates the query parameters; every broken one is a 400 that names it. */
    public static ReservationQuery of(String tenantId, String status, String sku, String reference, String idempotencyKey,
            String createdFrom, String createdTo, String limit, String cursor, Cursors cursors) {
        ReservationStatus wanted = null;
        if (status != null) {
            wanted = Arrays.stream(ReservationStatus.values()).filter(s -> s.name().equals(status)).findFirst()
                    .orElseThrow(() -> new ValidationFailedException("status", "must be one of " + ReservationStatus.names()));
        }
        if (sku != null) {
            Sku.require("sku", sku);
        }
        if (reference != null && (reference.isEmpty() || reference.length() > 128)) {
            throw new ValidationFailedException("reference", "must be 1-128 characters");
        }
        Params.text("reference", reference);
        if (idempotencyKey != null && !IdempotencyKey.isValue(idempotencyKey)) {
            throw new ValidationFailedException("idempotencyKey", "must be the key's value: 1-255 printable ASCII characters");
        }
        int size = Params.integer("limit", limit, 1, MAX_LIMIT, DEFAULT_LIMIT);
        ReservationQuery query = new ReservationQuery(tenantId, wanted, sku, reference, idempotencyKey,
                Params.instant("createdFrom", createdFrom),
                Params.instant("createdTo", createdTo), size, null);
        return cursor == null ? query : query.after(query.decode(cursor, cursors));
    }

    ReservationQuery after(Position position) {
        return new ReservationQuery(tenantId, status, sku, reference, idempotencyKey, createdFrom, createdTo, limit, position);
    }

    /** The SQL of this shape, returning (id, created_at) of up to limit + 1 rows, and its arguments in order. */
    String sql() {
        StringBuilder where = new StringBuilder("r.tenant_id = ?");
        if (status != null) {
            where.append(" AND r.status = ?");
        }
        if (reference != null) {
            where.append(" AND r.reference = ?");
        }
        if (idempotencyKey != null) {
            // the reservation a key's stored outcome names: one probe of each primary key (uncorrelated, so the
            // planner reads the record first and then the one reservation, never the tenant's walk with a filter)
            where.append(" AND r.id = (SELECT i.reservation_id FROM idempotency_records i WHERE i.tenant_id = ?"
                    + " AND i.idempotency_key = ?)");
        }
        if (createdFrom != null) {
            where.append(" AND r.created_at >= ?");
        }
        if (createdTo != null) {
            where.append(" AND r.created_at < ?");
        }
        if (after != null) {
            where.append(" AND (r.created_at, r.id) < (?, ?)");
        }
        if (sku != null) {
            // one probe of the (reservation_id, sku) unique index per row the walk meets
            where.append(" AND EXISTS (SELECT 1 FROM reservation_lines l WHERE l.reservation_id = r.id AND l.sku = ?)");
        }
        return "SELECT r.id, r.created_at FROM reservations r WHERE " + where
                + " ORDER BY r.created_at DESC, r.id DESC LIMIT ?";
    }

    List<Object> arguments() {
        List<Object> args = new ArrayList<>();
        args.add(tenantId);
        if (status != null) {
            args.add(status.name());
        }
        if (reference != null) {
            args.add(reference);
        }
        if (idempotencyKey != null) {
            args.add(tenantId);
            args.add(idempotencyKey);
        }
        if (createdFrom != null) {
            args.add(java.sql.Timestamp.from(createdFrom));
        }
        if (createdTo != null) {
            args.add(java.sql.Timestamp.from(createdTo));
        }
        if (after != null) {
            args.add(java.sql.Timestamp.from(after.createdAt()));
            args.add(after.id());
        }
        if (sku != null) {
            args.add(sku);
        }
        args.add(limit + 1);
        return args;
    }

    /** The cursor that continues after {@code last}. */
    String encode(Position last, Cursors cursors) {
        return cursors.encode(binding(), List.of(String.valueOf(ChronoUnit.MICROS.between(Instant.EPOCH, last.createdAt())),
                last.id().toString()));
    }

    private Position decode(String cursor, Cursors cursors) {
        List<String> position = cursors.decode(binding(), cursor, 2);
        try {
            Instant createdAt = Instant.EPOCH.plus(Long.parseLong(position.get(0)), ChronoUnit.MICROS);
            if (Params.storable(createdAt)) {
                return new Position(createdAt, UUID.fromString(position.get(1)));
            }
        } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
            // answered below
        }
        throw Cursors.invalid();
    }

    private List<String> binding() {
        List<String> binding = new ArrayList<>(List.of("reservations", tenantId, String.valueOf(status), String.valueOf(sku),
                String.valueOf(reference), String.valueOf(createdFrom), String.valueOf(createdTo)));
        if (idempotencyKey != null) {
            // appended only when given, so a cursor made before this filter existed still reads
            binding.add("idempotencyKey=" + idempotencyKey);
        }
        return binding;
    }
}
