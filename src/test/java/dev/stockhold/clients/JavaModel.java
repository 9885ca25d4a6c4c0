package dev.stockhold.clients;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The Java client's request and answer types, written from the schemas of an OpenAPI document: one record per object
 * schema, one enum per named string enum. Required integers and booleans are primitives, the rest may be null and is
 * left out of a request. A record with optional fields gets {@code of(required...)} and one {@code withX} per optional
 * field. ClientModelTest compares the result with the committed sources, so the client follows every API change.
 */
final class JavaModel {

    static final String PACKAGE = "dev.stockhold.client.model";
    /** Schemas that are Java types already. */
    private static final Map<String, String> BUILT_IN = Map.of("UUID", "UUID", "Instant", "Instant");

    private JavaModel() {
    }

    /** File name to source, for every schema of {@code components/schemas}. */
    static Map<String, String> sources(JsonNode document) {
        Map<String, String> files = new TreeMap<>();
        document.path("components").path("schemas").fields().forEachRemaining(entry -> {
            String name = entry.getKey();
            JsonNode schema = entry.getValue();
            if (BUILT_IN.containsKey(name)) {
                return;
            }
            files.put(name + ".java", schema.has("enum") ? enumSource(name, schema) : recordSource(name, schema));
        });
        return files;
    }

    private static String enumSource(String name, JsonNode schema) {
        StringBuilder out = header(Set.of());
        javadoc(out, "", escape(schema.path("description").asText("The " + name + " values of the API.")));
        out.append("public enum ").append(name).append(" {\n");
        List<String> values = new ArrayList<>();
        schema.path("enum").forEach(v -> values.add("    " + v.asText()));
        out.append(String.join(",\n", values)).append("\n}\n");
        return out.toString();
    }

    private static String recordSource(String name, JsonNode schema) {
        Set<String> required = new java.util.HashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        Map<String, Field> fields = new LinkedHashMap<>();
        schema.path("properties").fields()
                .forEachRemaining(p -> fields.put(p.getKey(), Field.of(p.getKey(), p.getValue(), required.contains(p.getKey()))));
        Set<String> imports = new java.util.TreeSet<>(Set.of("com.fasterxml.jackson.annotation.JsonIgnoreProperties",
                "com.fasterxml.jackson.annotation.JsonInclude"));
        fields.values().forEach(f -> imports.addAll(f.imports()));
        StringBuilder out = header(imports);
        StringBuilder doc = new StringBuilder(escape(schema.path("description").asText("The " + name + " object of the API.")));
        fields.values()
                .forEach(f -> doc.append(f == fields.values().iterator().next() ? "\n\n@param " : "\n@param ").append(f.name())
                        .append(f.required() ? " (required) " : " (optional) ")
                        .append(escape(f.description())));
        javadoc(out, "", doc.toString());
        out.append("@JsonInclude(JsonInclude.Include.NON_NULL)\n@JsonIgnoreProperties(ignoreUnknown = true)\n");
        out.append("public record ").append(name).append("(");
        out.append(String.join(", ", fields.values().stream().map(f -> f.type() + " " + f.name()).toList())).append(") {\n");
        List<Field> optional = fields.values().stream().filter(f -> !f.required()).toList();
        if (!optional.isEmpty()) {
            factory(out, name, fields);
            for (Field f : optional) {
                String cap = Character.toUpperCase(f.name().charAt(0)) + f.name().substring(1);
                out.append("\n    /** A copy with {@code ").append(f.name()).append("} set. */\n");
                out.append("    public ").append(name).append(" with").append(cap).append("(").append(f.type()).append(" value) {\n");
                out.append("        return new ").append(name).append("(")
                        .append(String.join(", ", fields.values().stream().map(g -> g == f ? "value" : g.name()).toList()))
                        .append(");\n    }\n");
            }
        }
        return out.append("}\n").toString();
    }

    private static void factory(StringBuilder out, String name, Map<String, Field> fields) {
        List<Field> required = fields.values().stream().filter(Field::required).toList();
        out.append("\n    /** The required fields; the optional ones are absent. */\n");
        out.append("    public static ").append(name).append(" of(")
                .append(String.join(", ", required.stream().map(f -> f.type() + " " + f.name()).toList())).append(") {\n");
        out.append("        return new ").append(name).append("(")
                .append(String.join(", ", fields.values().stream().map(f -> f.required() ? f.name() : "null").toList()))
                .append(");\n    }\n");
    }

    private static StringBuilder header(Set<String> imports) {
        StringBuilder out = new StringBuilder("package ").append(PACKAGE).append(";\n\n");
        List<String> java = imports.stream().filter(i -> i.startsWith("java.")).sorted().toList();
        List<String> other = imports.stream().filter(i -> !i.startsWith("java.")).sorted().toList();
        java.forEach(i -> out.append("import ").append(i).append(";\n"));
        if (!java.isEmpty()) {
            out.append('\n');
        }
        other.forEach(i -> out.append("import ").append(i).append(";\n"));
        if (!other.isEmpty()) {
            out.append('\n');
        }
        out.append("// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.\n");
        return out;
    }

    private static void javadoc(StringBuilder out, String indent, String text) {
        out.append(indent).append("/**\n");
        for (String line : text.split("\n", -1)) {
            out.append(indent).append(line.isBlank() ? " *" : (" * " + line).stripTrailing()).append('\n');
        }
        out.append(indent).append(" */\n");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*/", "*&#47;").replace("@", "&#64;").strip();
    }

    /** One property: its Java type, whether required, its description. */
    record Field(String name, String type, boolean required, String description, Set<String> imports) {

        static Field of(String name, JsonNode schema, boolean required) {
            Set<String> imports = new java.util.TreeSet<>();
            String type = type(schema, required, imports);
            return new Field(name, type, required, schema.path("description").asText(""), imports);
        }

        private static String type(JsonNode schema, boolean required, Set<String> imports) {
            if (schema.has("$ref")) {
                String ref = schema.get("$ref").asText().replace("#/components/schemas/", "");
                String builtIn = BUILT_IN.get(ref);
                if (builtIn != null) {
                    imports.add(builtIn.equals("UUID") ? "java.util.UUID" : "java.time.Instant");
                    return builtIn;
                }
                return ref;
            }
            String format = schema.path("format").asText("");
            switch (schema.path("type").asText("")) {
                case "integer":
                    return format.equals("int32") ? (required ? "int" : "Integer") : (required ? "long" : "Long");
                case "number":
                    imports.add("java.math.BigDecimal");
                    return "BigDecimal";
                case "boolean":
                    return required ? "boolean" : "Boolean";
                case "array":
                    imports.add("java.util.List");
                    return "List<" + type(schema.path("items"), false, imports) + ">";
                case "object":
                    imports.add("java.util.Map");
                    return "Map<String, " + type(schema.path("additionalProperties"), false, imports) + ">";
                case "string":
                    if (format.equals("date-time")) {
                        imports.add("java.time.Instant");
                        return "Instant";
                    }
                    if (format.equals("uuid")) {
                        imports.add("java.util.UUID");
                        return "UUID";
                    }
                    return "String";
                default:
                    throw new IllegalArgumentException("a schema the client model cannot type: " + schema);
            }
        }
    }
}
