package dev.stockhold.reservation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.stockhold.inventory.StockKey;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** The reservation body (docs/operations.md): API responses and event data. Absent optional fields are omitted. */
@Schema(name = "Reservation")
@RegisterForReflection(ignoreNested = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationView(
        @Schema(required = true) UUID id,
        @Schema(required = true, description = "PARTIALLY_FULFILLED and FULFILLED only with deferred fulfilment") ReservationStatus status,
        @Schema(required = true) List<Line> lines,
        @Schema(required = true, description = "ISO-8601 UTC") Instant expiresAt,
        @Schema(required = true, description = "ISO-8601 UTC") Instant createdAt,
        @Schema(description = "The client's order or cart id, when given") String reference,
        @Schema(description = "The client's string pairs, when given") Map<String, String> metadata,
        @Schema(enumeration = {
                "deferred" },
                description = "deferred when the request asked for it: the confirm commits the units, fulfilments take them") String fulfilment,
        @Schema(enumeration = { "split", "partial" },
                description = "split or partial when the request asked for it: each line shows its allocations (and, partial, its shortfall)") String allocation,
        @Schema(example = "b2b", description = "The channel the request was allocated through, when it named one") String channel){

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> PAIRS = new TypeReference<>() {
    };

    public static ReservationView of(Reservation r) {
        boolean settled = r.isDeferred() && r.status.isConfirmed();
        return of(r, r.status, r.lines.stream().map(l -> settled ? new Line(l.sku, l.quantity, l.location(), l.fulfilled, l.released)
                : new Line(l.sku, l.quantity, l.location())).toList());
    }

    /**
     * The reservation with this status and these lines: a change written by SQL that the entity does not show yet.
     *
     * @param rows one line per stock record, as reservation_lines holds them; a split or partial reservation answers them
     *            grouped by the lines it was asked for
     */
    static ReservationView of(Reservation r, ReservationStatus status, List<Line> rows) {
        List<Line> lines = r.requestedLines == null ? rows
                : grouped(StoredLines.requestedOf(r.requestedLines), rows, AllocationMode.PARTIAL.wire().equals(r.allocation));
        return new ReservationView(r.id, status, lines, r.expiresAt, r.createdAt, r.reference, metadataOf(r.metadata), r.fulfilment,
                r.requestedLines == null ? null : r.allocation, r.channel).waiting(StoredLines.backordersOf(r.backorders));
    }

    /**
     * Each asked-for line with the rows that serve it: the rows of its sku (at its location, when it named one), in
     * allocation order. A partial line shows what it did not get.
     */
    static List<Line> grouped(List<StoredLines.Requested> requested, List<Line> rows, boolean partial) {
        // the component units kit lines hold come off the rows first; the plain lines take what is left of each row
        Map<StockKey, Integer> kitHeld = new java.util.HashMap<>();
        requested.stream().filter(r -> r.components() != null)
                .forEach(r -> r.components().forEach(c -> kitHeld.merge(new StockKey(c.sku(), c.location()), c.quantity(), Integer::sum)));
        List<Line> lines = new ArrayList<>();
        for (StoredLines.Requested asked : requested) {
            if (asked.components() != null) {
                int units = asked.units().stream().mapToInt(Allocated::quantity).sum();
                lines.add(new Line(asked.sku(), units, asked.location(), null, null, asked.units(),
                        partial ? asked.quantity() - units : null, null, null, null, asked.components()));
                continue;
            }
            List<Allocated> parts = new ArrayList<>();
            int quantity = 0;
            Integer fulfilled = null;
            Integer released = null;
            for (Line row : rows) {
                if (row.sku().equals(asked.sku()) && (asked.location() == null || asked.location().equals(row.location()))) {
                    int own = row.quantity() - kitHeld.getOrDefault(row.key(), 0);
                    if (own <= 0) {
                        continue;
                    }
                    parts.add(new Allocated(row.location(), own, row.fulfilled(), row.released()));
                    quantity += own;
                    fulfilled = plus(fulfilled, row.fulfilled());
                    released = plus(released, row.released());
                }
            }
            lines.add(new Line(asked.sku(), quantity, asked.location(), fulfilled, released, List.copyOf(parts),
                    partial ? asked.quantity() - quantity : null));
        }
        return lines;
    }

    private static int count(Integer units) {
        return units == null ? 0 : units;
    }

    /** A sum of optional counts: null while neither is there. */
    private static Integer plus(Integer sum, Integer count) {
        return count == null ? sum : Integer.valueOf((sum == null ? 0 : sum) + count);
    }

    /** One line per stock record the reservation holds, as reservation_lines and the events have them. */
    List<Line> rows() {
        if (allocation == null && !hasKits()) {
            return lines;
        }
        // a kit line's components, a split line's allocations; lines that share a record (a kit and its component) merged
        Map<StockKey, Line> merged = new java.util.LinkedHashMap<>();
        for (Line line : lines) {
            List<Line> own = line.components() != null
                    ? line.components().stream().map(c -> new Line(c.sku(), c.quantity(), c.location())).toList()
                    : line.allocations() == null ? List.of(line)
                    : line.allocations().stream()
                            .map(part -> new Line(line.sku(), part.quantity(), part.location(), part.fulfilled(), part.released()))
                            .toList();
            own.forEach(row -> merged.merge(row.key(), row, (a, b) -> new Line(a.sku(), a.quantity() + b.quantity(), a.location(),
                    plus(a.fulfilled(), b.fulfilled()), plus(a.released(), b.released()))));
        }
        return List.copyOf(merged.values());
    }

    /** Whether some line is a kit line. */
    boolean hasKits() {
        return lines.stream().anyMatch(l -> l.components() != null);
    }

    /** The requested_lines column's text: the lines a split or partial request asked for; null otherwise. */
    String requestedJson() {
        if (allocation == null && !hasKits()) {
            return null;
        }
        try {
            return StoredLines.MAPPER.writeValueAsString(lines.stream()
                    .map(l -> new StoredLines.Requested(l.sku(),
                            l.quantity() + count(l.shortfall()) + count(l.backordered()) + count(l.unpromised()),
                            l.location(), l.components(), l.components() == null ? null : l.allocations()))
                    .toList());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public String location() {
        return "/v1/reservations/" + id;
    }

    /** The metadata column's text: a JSON object, or null. */
    String metadataJson() {
        try {
            return metadata == null ? null : JSON.writeValueAsString(metadata);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> metadataOf(String json) {
        try {
            return json == null ? null : JSON.readValue(json, PAIRS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("metadata column is not a JSON object of strings", e);
        }
    }

    /**
     * One reserved sku and quantity; with deferred fulfilment, once confirmed, what was fulfilled and released. A line
     * of a split or partial reservation is a line of the request, with the records that serve it.
     */
    @Schema(name = "ReservationLine")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Line(@Schema(required = true, example = "A-1") String sku,
            @Schema(required = true, example = "2", minimum = "0",
                    description = "Units reserved (0 only for a partial line that got none)") int quantity,
            @Schema(example = "default",
                    description = "The location that serves the line; on a split or partial reservation, the location the request named "
                            + "(absent when it named none: see allocations)") String location,
            @Schema(description = "Deferred fulfilment, once confirmed: units fulfilled", example = "1") Integer fulfilled,
            @Schema(description = "Deferred fulfilment, once confirmed: units released; quantity - fulfilled - released stay committed",
                    example = "0") Integer released,
            @Schema(description = "Split or partial reservations: the locations that serve the line, in allocation order") List<Allocated> allocations,
            @Schema(description = "Partial reservations: units asked for and not reserved", minimum = "0",
                    example = "0") Integer shortfall,
            @Schema(description = "Backorder: units promised from incoming supply and not yet allocated (quantity is what is held)",
                    minimum = "1", example = "4") Integer backordered,
            @Schema(description = "Backorder: when the last supply this line waits for is expected (ISO-8601 UTC)") Instant promisedAt,
            @Schema(description = "Backorder: units whose supply fell short with no other supply to promise them", minimum = "1",
                    example = "1") Integer unpromised,
            @Schema(description = "A kit line: the component units it holds, per location (quantity and allocations count kit units)") List<Component> components) {

        public Line(String sku, int quantity, String location) {
            this(sku, quantity, location, null, null);
        }

        public Line(String sku, int quantity, String location, Integer fulfilled, Integer released) {
            this(sku, quantity, location, fulfilled, released, null, null);
        }

        public Line(String sku, int quantity, String location, Integer fulfilled, Integer released, List<Allocated> allocations,
                Integer shortfall) {
            this(sku, quantity, location, fulfilled, released, allocations, shortfall, null, null, null, null);
        }

        /** The line with what it waits for (null: nothing). */
        Line waiting(Backordered b) {
            return b == null ? this
                    : new Line(sku, quantity, location, fulfilled, released, allocations, shortfall,
                            b.backordered() > 0 ? b.backordered() : null,
                            b.promisedAt(), b.unpromised() > 0 ? b.unpromised() : null, components);
        }

        StockKey key() {
            return new StockKey(sku, location);
        }
    }

    /** Units of a kit's component that a kit line holds at one location. */
    @Schema(name = "ReservationKitComponent")
    public record Component(@Schema(required = true, example = "A-1") String sku,
            @Schema(required = true, minimum = "1", example = "2") int quantity,
            @Schema(required = true, example = "WH-1") String location) {
    }

    /**
     * What one requested line of a backordered reservation waits for: units promised and not allocated, the expected
     * date of the last supply they wait for, and units left without supply. Kept as JSON in reservations.backorders.
     */
    record Backordered(int line, int backordered, Instant promisedAt, int unpromised) {
    }

    /** The lines with what each waits for, by requested line index. */
    ReservationView waiting(List<Backordered> waits) {
        if (waits == null || waits.isEmpty()) {
            return this;
        }
        List<Line> marked = new ArrayList<>(lines);
        waits.forEach(b -> marked.set(b.line(), marked.get(b.line()).waiting(b)));
        return new ReservationView(id, status, marked, expiresAt, createdAt, reference, metadata, fulfilment, allocation, channel);
    }

    /** Units of a split or partial line at one location; with deferred fulfilment, once confirmed, what was settled there. */
    @Schema(name = "ReservationAllocation")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Allocated(@Schema(required = true, example = "WH-1") String location,
            @Schema(required = true, minimum = "1", example = "2") int quantity,
            @Schema(description = "Deferred fulfilment, once confirmed: units fulfilled here", example = "1") Integer fulfilled,
            @Schema(description = "Deferred fulfilment, once confirmed: units released here", example = "0") Integer released) {
    }

    /** Quantities per stock record, in the order every stock update locks them. */
    SortedMap<StockKey, Long> quantities() {
        SortedMap<StockKey, Long> byKey = new TreeMap<>();
        rows().forEach(line -> byKey.merge(line.key(), (long) line.quantity(), Long::sum));
        return byKey;
    }
}
