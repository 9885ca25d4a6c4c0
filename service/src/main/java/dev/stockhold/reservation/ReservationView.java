package dev.stockhold.reservation;

import java.time.Instant;
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
        @Schema(required = true, enumeration = {
                "HELD", "CONFIRMED", "CANCELLED", "EXPIRED", "PARTIALLY_FULFILLED",
                "FULFILLED" }, description = "PARTIALLY_FULFILLED and FULFILLED only with deferred fulfilment") ReservationStatus status,
        @Schema(required = true) List<Line> lines,
        @Schema(required = true, description = "ISO-8601 UTC") Instant expiresAt,
        @Schema(required = true, description = "ISO-8601 UTC") Instant createdAt,
        @Schema(description = "The client's order or cart id, when given") String reference,
        @Schema(description = "The client's string pairs, when given") Map<String, String> metadata,
        @Schema(enumeration = { "deferred" },
                description = "deferred when the request asked for it: the confirm commits the units, fulfilments take them") String fulfilment){

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> PAIRS = new TypeReference<>() {
    };

    public static ReservationView of(Reservation r) {
        boolean settled = r.isDeferred() && r.status.isConfirmed();
        return of(r, r.status, r.lines.stream().map(l -> settled ? new Line(l.sku, l.quantity, l.location(), l.fulfilled, l.released)
                : new Line(l.sku, l.quantity, l.location())).toList());
    }

    /** The reservation with this status and these lines: a change written by SQL that the entity does not show yet. */
    static ReservationView of(Reservation r, ReservationStatus status, List<Line> lines) {
        return new ReservationView(r.id, status, lines, r.expiresAt, r.createdAt, r.reference, metadataOf(r.metadata), r.fulfilment);
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

    /** One reserved sku and quantity; with deferred fulfilment, once confirmed, what was fulfilled and released. */
    @Schema(name = "ReservationLine")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Line(@Schema(required = true, example = "A-1") String sku, @Schema(required = true, example = "2") int quantity,
            @Schema(required = true, example = "default", description = "The location that serves the line") String location,
            @Schema(description = "Deferred fulfilment, once confirmed: units fulfilled", example = "1") Integer fulfilled,
            @Schema(description = "Deferred fulfilment, once confirmed: units released; quantity - fulfilled - released stay committed",
                    example = "0") Integer released) {

        public Line(String sku, int quantity, String location) {
            this(sku, quantity, location, null, null);
        }

        StockKey key() {
            return new StockKey(sku, location);
        }
    }

    /** Quantities per stock record, in the order every stock update locks them. */
    SortedMap<StockKey, Long> quantities() {
        SortedMap<StockKey, Long> byKey = new TreeMap<>();
        lines.forEach(line -> byKey.merge(line.key(), (long) line.quantity(), Long::sum));
        return byKey;
    }
}
