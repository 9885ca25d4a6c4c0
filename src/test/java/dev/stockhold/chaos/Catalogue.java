package dev.stockhold.chaos;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * How the tenant sells, after a run (part of {@link Snapshot}): its channels and which reservation went through which,
 * its kits, and the lines each reservation with a kit line asked for, as the reservation keeps them.
 */
record Catalogue(Map<String, List<String>> channels, Map<String, String> channelOf, Map<String, Map<String, Integer>> kits,
        Map<String, List<Asked>> kitReservations) {

    static final Catalogue NONE = new Catalogue(Map.of(), Map.of(), Map.of(), Map.of());

    /**
     * A line as a reservation with kit lines keeps it: for a kit, the component units it holds ({@code components}, by
     * sku@location) and its kit units per location ({@code units}); for any other sku both are null.
     */
    record Asked(String sku, int quantity, Map<String, Integer> components, Map<String, Integer> units) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static Catalogue read(Connection c, String tenant) throws SQLException {
        Map<String, List<String>> channels = new TreeMap<>();
        Snapshot.query(c, "SELECT channel, locations FROM channels WHERE tenant_id = ?", tenant,
                rs -> channels.put(rs.getString(1), Arrays.asList((String[]) rs.getArray(2).getArray())));
        Map<String, String> channelOf = new TreeMap<>();
        Snapshot.query(c, "SELECT id::text, channel FROM reservations WHERE tenant_id = ? AND channel IS NOT NULL", tenant,
                rs -> channelOf.put(rs.getString(1), rs.getString(2)));
        Map<String, Map<String, Integer>> kits = new TreeMap<>();
        Snapshot.query(c, "SELECT sku, component_skus, component_quantities FROM kits WHERE tenant_id = ?", tenant, rs -> {
            String[] skus = (String[]) rs.getArray(2).getArray();
            Integer[] quantities = (Integer[]) rs.getArray(3).getArray();
            Map<String, Integer> components = new LinkedHashMap<>();
            for (int i = 0; i < skus.length; i++) {
                components.put(skus[i], quantities[i]);
            }
            kits.put(rs.getString(1), components);
        });
        Map<String, List<Asked>> kitReservations = new TreeMap<>();
        Snapshot.query(c, """
                SELECT id::text, requested_lines FROM reservations
                 WHERE tenant_id = ? AND requested_lines IS NOT NULL AND requested_lines LIKE '%"components"%'""", tenant,
                rs -> kitReservations.put(rs.getString(1), asked(rs.getString(2))));
        return new Catalogue(channels, channelOf, kits, kitReservations);
    }

    private static List<Asked> asked(String json) {
        List<Asked> lines = new ArrayList<>();
        try {
            for (JsonNode line : JSON.readTree(json)) {
                Map<String, Integer> components = null;
                Map<String, Integer> units = null;
                if (line.hasNonNull("components")) {
                    components = new TreeMap<>();
                    units = new TreeMap<>();
                    for (JsonNode part : line.path("components")) {
                        components.merge(part.path("sku").asText() + "@" + part.path("location").asText(), part.path("quantity").asInt(),
                                Integer::sum);
                    }
                    for (JsonNode at : line.path("units")) {
                        units.merge(at.path("location").asText(), at.path("quantity").asInt(), Integer::sum);
                    }
                }
                lines.add(new Asked(line.path("sku").asText(), line.path("quantity").asInt(), components, units));
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException("requested_lines is not JSON: " + json, e);
        }
        return lines;
    }
}
