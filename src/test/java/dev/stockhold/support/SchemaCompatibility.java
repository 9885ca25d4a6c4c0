package dev.stockhold.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a consumer built on an earlier schema of the same event version would trip over in a newer one: a property
 * removed or renamed, a field no longer required, a type changed, an enum narrowed. Adding optional properties,
 * widening an enum and dropping a constraint are compatible. Each finding names its place, e.g.
 * {@code /properties/lines/items: no longer requires "location"}.
 */
public final class SchemaCompatibility {

    private SchemaCompatibility() {
    }

    /** @return the breaking changes from {@code released} to {@code current}, empty when none */
    public static List<String> breakingChanges(JsonNode released, JsonNode current) {
        List<String> found = new ArrayList<>();
        compare("", released, current, found);
        return found;
    }

    private static void compare(String at, JsonNode released, JsonNode current, List<String> found) {
        String where = at.isEmpty() ? "/" : at;
        if (!released.path("type").equals(current.path("type"))) {
            found.add(where + ": changes the type from " + released.path("type") + " to " + current.path("type"));
        }
        if (released.has("enum")) {
            Set<String> kept = values(current.path("enum"));
            Set<String> removed = new TreeSet<>(values(released.path("enum")));
            removed.removeAll(kept);
            if (!current.has("enum")) {
                removed.clear();
            }
            if (!removed.isEmpty()) {
                found.add(where + ": narrows the enum, removing " + removed);
            }
        }
        Set<String> stillRequired = values(current.path("required"));
        for (String name : values(released.path("required"))) {
            if (!stillRequired.contains(name)) {
                found.add(where + ": no longer requires \"" + name + "\"");
            }
        }
        released.path("properties").fieldNames().forEachRemaining(name -> {
            JsonNode now = current.path("properties").path(name);
            if (now.isMissingNode()) {
                found.add(where + ": removes or renames property \"" + name + "\"");
            } else {
                compare(at + "/properties/" + name, released.path("properties").path(name), now, found);
            }
        });
        for (String keyword : List.of("items", "additionalProperties")) {
            if (released.path(keyword).isObject() && current.path(keyword).isObject()) {
                compare(at + "/" + keyword, released.path(keyword), current.path(keyword), found);
            }
        }
    }

    private static Set<String> values(JsonNode array) {
        Set<String> values = new TreeSet<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }
}
