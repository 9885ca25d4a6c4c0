package dev.stockhold.reservation;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A reservation's JSON columns beside its rows: requested_lines (the lines asked for, with a kit line's components and
 * kit units) and backorders (what each backordered line waits for), written and read here.
 */
final class StoredLines {

    /**
     * A settlement's lines with each kit line of the reservation replaced by its components' units at the kit line's
     * location (named, or its only one): what the kit's units hold there, per unit, times the units asked.
     *
     * @return the lines as the reservation's records know them
     */
    static List<SettlementRequest.Line> componentsOf(String requestedLines, List<SettlementRequest.Line> asked) {
        List<Requested> kitLines = requestedLines == null ? List.of()
                : requestedOf(requestedLines).stream().filter(r -> r.components() != null).toList();
        if (kitLines.isEmpty()) {
            return asked;
        }
        List<SettlementRequest.Line> lines = new ArrayList<>();
        for (SettlementRequest.Line line : asked) {
            Requested kit = kitLines.stream().filter(k -> k.sku().equals(line.sku())).findFirst().orElse(null);
            if (kit == null) {
                lines.add(line);
                continue;
            }
            List<ReservationView.Allocated> at = kit.units().stream()
                    .filter(u -> line.location() == null || u.location().equals(line.location())).toList();
            if (at.size() != 1) {
                throw new dev.stockhold.web.ValidationFailedException("lines",
                        at.isEmpty() ? "the reservation has no kit line " + line.sku()
                                + " at " + line.location()
                                : "the reservation has kit " + line.sku() + " at several locations: name the location");
            }
            ReservationView.Allocated units = at.get(0);
            kit.components().stream().filter(c -> c.location().equals(units.location())).forEach(c -> lines.add(
                    new SettlementRequest.Line(c.sku(), units.location(), c.quantity() / units.quantity() * line.quantity())));
        }
        return lines;
    }

    static List<Requested> requestedOf(String json) {
        try {
            return MAPPER.readValue(json, REQUESTED);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("requested_lines column is not a JSON array of lines", e);
        }
    }

    /** The reservations.backorders column's text: what each backordered line waits for; null when nothing waits. */
    static String backordersJson(List<ReservationView.Backordered> waits) {
        try {
            return waits == null || waits.isEmpty() ? null : MAPPER.writeValueAsString(waits);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<ReservationView.Backordered> backordersOf(String json) {
        try {
            return json == null ? null : MAPPER.readValue(json, WAITS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("backorders column is not a JSON array of waiting lines", e);
        }
    }

    /**
     * A requested line as requested_lines keeps it: the sku, units and location asked for, and for a kit line the
     * component units it holds and its kit units per location.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Requested(String sku, int quantity, String location, List<ReservationView.Component> components,
            List<ReservationView.Allocated> units) {
    }

    private static final TypeReference<List<Requested>> REQUESTED = new TypeReference<>() {
    };

    private static final TypeReference<List<ReservationView.Backordered>> WAITS = new TypeReference<>() {
    };

    /** Reads and writes instants as ISO-8601 text. */
    static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules()
            .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private StoredLines() {
    }
}
