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
    private static final TypeReference<List<ReservationRequest.Line>> REQUESTED = new TypeReference<>() {
    };
    private static final TypeReference<List<Backordered>> WAITS = new TypeReference<>() {
    };
    /** Reads and writes instants as ISO-8601 text. */
    private static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules()
            .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

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
                : grouped(requestedOf(r.requestedLines), rows, AllocationMode.PARTIAL.wire().equals(r.allocation));
        return new ReservationView(r.id, status, lines, r.expiresAt, r.createdAt, r.reference, metadataOf(r.metadata), r.fulfilment,
                r.requestedLines == null ? null : r.allocation, r.channel).waiting(backordersOf(r.backorders));
    }

    /**
     * Each asked-for line with the rows that serve it: the rows of its sku (at its location, when it named one), in
     * allocation order. A partial line shows what it did not get.
     */
    static List<Line> grouped(List<ReservationRequest.Line> requested, List<Line> rows, boolean partial) {
        List<Line> lines = new ArrayList<>();
        for (ReservationRequest.Line asked : requested) {
            List<Allocated> parts = new ArrayList<>();
            int quantity = 0;
            Integer fulfilled = null;
            Integer released = null;
            for (Line row : rows) {
                if (row.sku().equals(asked.sku()) && (asked.location() == null || asked.location().equals(row.location()))) {
                    parts.add(new Allocated(row.location(), row.quantity(), row.fulfilled(), row.released()));
                    quantity += row.quantity();
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
        if (allocation == null) {
            return lines;
        }
        List<Line> rows = new ArrayList<>();
        lines.forEach(line -> line.allocations()
                .forEach(part -> rows.add(new Line(line.sku(), part.quantity(), part.location(), part.fulfilled(), part.released()))));
        return rows;
    }

    /** The requested_lines column's text: the lines a split or partial request asked for; null otherwise. */
    String requestedJson() {
        if (allocation == null) {
            return null;
        }
        try {
            return JSON.writeValueAsString(lines.stream()
                    .map(l -> new ReservationRequest.Line(l.sku(), l.quantity() + count(l.shortfall()) + count(l.backordered())
                            + count(l.unpromised()), l.location()))
                    .toList());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<ReservationRequest.Line> requestedOf(String json) {
        try {
            return JSON.readValue(json, REQUESTED);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("requested_lines column is not a JSON array of lines", e);
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

    /** The reservations.backorders column's text: what each backordered line waits for; null when nothing waits. */
    static String backordersJson(List<Backordered> waits) {
        try {
            return waits == null || waits.isEmpty() ? null : MAPPER.writeValueAsString(waits);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Backordered> backordersOf(String json) {
        try {
            return json == null ? null : MAPPER.readValue(json, WAITS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("backorders column is not a JSON array of waiting lines", e);
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
                    example = "1") Integer unpromised) {

        public Line(String sku, int quantity, String location) {
            this(sku, quantity, location, null, null);
        }

        public Line(String sku, int quantity, String location, Integer fulfilled, Integer released) {
            this(sku, quantity, location, fulfilled, released, null, null);
        }

        public Line(String sku, int quantity, String location, Integer fulfilled, Integer released, List<Allocated> allocations,
                Integer shortfall) {
            this(sku, quantity, location, fulfilled, released, allocations, shortfall, null, null, null);
        }

        /** The line with what it waits for (null: nothing). */
        Line waiting(Backordered b) {
            return b == null ? this
                    : new Line(sku, quantity, location, fulfilled, released, allocations, shortfall,
                            b.backordered() > 0 ? b.backordered() : null,
                            b.promisedAt(), b.unpromised() > 0 ? b.unpromised() : null);
        }

        StockKey key() {
            return new StockKey(sku, location);
        }
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
