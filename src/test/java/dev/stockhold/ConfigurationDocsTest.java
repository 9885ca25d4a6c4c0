package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Repository;
import io.smallrye.config.WithDefault;

/**
 * One source per setting: every Stockhold setting is declared once, in {@link StockholdConfig}, with its default and a
 * line of javadoc; {@code application.properties} only overrides them per profile; and the table in
 * {@code docs/operations.md} is generated from the mapping. A setting added, removed, renamed or given another default
 * without the table following fails here; run with {@code -Dstockhold.docs.update=true} to rewrite the table.
 */
class ConfigurationDocsTest {

    static final Path DOCS = Repository.path("docs/operations.md");
    /** The mapping's sources: the root and the groups kept in files of their own. */
    static final List<Path> SOURCES = List.of(Path.of("src/main/java/dev/stockhold/StockholdConfig.java"),
            Path.of("src/main/java/dev/stockhold/LimitsConfig.java"), Path.of("src/main/java/dev/stockhold/ConsoleConfig.java"));
    static final Path PROPERTIES = Path.of("src/main/resources/application.properties");
    static final String BEGIN = "<!-- settings table: generated from StockholdConfig by ConfigurationDocsTest -->";
    static final String END = "<!-- end of settings table -->";

    record Setting(String property, String env, String defaultValue, String meaning) {
    }

    @Test
    void shouldDocumentEverySettingOnceFromTheMapping() throws IOException {
        List<Setting> settings = settings();
        assertThat(settings).hasSizeGreaterThan(30);
        assertThat(settings).allSatisfy(s -> assertThat(s.meaning()).as("javadoc of %s", s.property()).isNotBlank());

        String expected = table(settings);
        String docs = Files.readString(DOCS);
        int begin = docs.indexOf(BEGIN);
        int end = docs.indexOf(END);
        assertThat(begin).as("the marker %s in %s", BEGIN, DOCS).isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String actual = docs.substring(begin + BEGIN.length(), end);
        if (!actual.equals(expected) && Boolean.getBoolean("stockhold.docs.update")) {
            Files.writeString(DOCS, docs.substring(0, begin + BEGIN.length()) + expected + docs.substring(end));
            return;
        }
        assertThat(actual).as("the settings table in %s (regenerate: ./mvnw test -Dtest=ConfigurationDocsTest "
                + "-Dstockhold.docs.update=true)", DOCS).isEqualTo(expected);
    }

    @Test
    void shouldOverrideStockholdSettingsOnlyPerProfile() throws IOException {
        for (String line : Files.readAllLines(PROPERTIES)) {
            assertThat(line).as("a default in application.properties: it belongs in StockholdConfig").doesNotStartWith("stockhold.");
        }
        for (String source : sources()) {
            assertThat(source).as("a fallback default in a config expression").doesNotContainPattern("\\$\\{stockhold\\.[a-z.-]+:");
        }
    }

    /** Every leaf of the mapping, in declaration-independent order (by property name). */
    static List<Setting> settings() throws IOException {
        Map<String, String> javadoc = new HashMap<>();
        for (Path source : SOURCES) {
            javadoc.putAll(javadoc(Files.readAllLines(source)));
        }
        Map<String, String> overrides = overrides();
        List<Setting> settings = new ArrayList<>();
        collect(StockholdConfig.class, "stockhold.", javadoc, overrides, settings);
        settings.sort(Comparator.comparing(Setting::property));
        return settings;
    }

    private static void collect(Class<?> type, String prefix, Map<String, String> javadoc, Map<String, String> overrides,
            List<Setting> into) {
        for (Method m : type.getDeclaredMethods()) {
            if (m.isDefault() || m.getParameterCount() > 0 || m.isSynthetic()) {
                continue;
            }
            String property = prefix + kebab(m.getName());
            // a group: nested in the mapping, or a mapping interface of its own file in the same package
            if (m.getReturnType().isInterface() && m.getReturnType().getPackage().equals(StockholdConfig.class.getPackage())) {
                collect(m.getReturnType(), property + ".", javadoc, overrides, into);
                continue;
            }
            WithDefault declared = m.getAnnotation(WithDefault.class);
            String value = declared == null ? "none" : declared.value().startsWith("${") ? "the build's version"
                    : "`" + declared.value() + "`";
            String override = overrides.get(property);
            into.add(new Setting(property, property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(),
                    override == null ? value : value + " (" + override + ")",
                    javadoc.getOrDefault(type.getSimpleName() + "." + m.getName(), "")));
        }
    }

    static String table(List<Setting> settings) {
        StringBuilder out = new StringBuilder("\n| variable | property | default | meaning |\n|---|---|---|---|\n");
        for (Setting s : settings) {
            out.append("| `").append(s.env()).append("` | `").append(s.property()).append("` | ").append(s.defaultValue())
                    .append(" | ").append(s.meaning().replace("|", "\\|")).append(" |\n");
        }
        return out.toString();
    }

    /** Profile overrides other than the test profile's, as "dev: 0". */
    private static Map<String, String> overrides() throws IOException {
        Properties properties = new Properties();
        try (var in = Files.newInputStream(PROPERTIES)) {
            properties.load(in);
        }
        Map<String, String> overrides = new HashMap<>();
        for (String key : properties.stringPropertyNames()) {
            Matcher m = Pattern.compile("%(\\w+)\\.(stockhold\\..+)").matcher(key);
            if (m.matches() && !m.group(1).equals("test")) {
                overrides.merge(m.group(2), m.group(1) + ": " + properties.getProperty(key), (a, b) -> a + ", " + b);
            }
        }
        return overrides;
    }

    /** The javadoc of each accessor, keyed by "Interface.method", read from the mapping's source. */
    static Map<String, String> javadoc(List<String> lines) {
        Map<String, String> docs = new HashMap<>();
        Deque<String> interfaces = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        Pattern declaration = Pattern.compile("^\\s*(?:public\\s+)?interface\\s+(\\w+)");
        Pattern accessor = Pattern.compile("^\\s*[\\w<>.]+\\s+(\\w+)\\(\\);");
        int depth = 0;
        StringBuilder comment = null;
        String pending = null;
        for (String line : lines) {
            String trimmed = line.trim();
            if (comment != null || trimmed.startsWith("/**")) {
                comment = comment == null ? new StringBuilder() : comment;
                comment.append(' ').append(trimmed.replaceFirst("^/\\*\\*", "").replaceFirst("\\*/$", "").replaceFirst("^\\*", ""));
                if (trimmed.endsWith("*/")) {
                    pending = render(comment.toString());
                    comment = null;
                }
                continue;
            }
            Matcher type = declaration.matcher(line);
            Matcher method = accessor.matcher(line);
            if (type.find()) {
                interfaces.push(type.group(1));
                depths.push(depth);
                pending = null;
            } else if (method.find()) {
                if (pending != null && !interfaces.isEmpty()) {
                    docs.put(interfaces.peek() + "." + method.group(1), pending);
                }
                pending = null;
            } else if (!trimmed.isEmpty() && !trimmed.startsWith("@")) {
                pending = null; // the javadoc belonged to something else (an enum, a constant)
            }
            for (char c : line.toCharArray()) {
                if (c == '{') {
                    depth++;
                } else if (c == '}') {
                    depth--;
                    if (!depths.isEmpty() && depth == depths.peek()) {
                        depths.pop();
                        interfaces.pop();
                    }
                }
            }
        }
        return docs;
    }

    private static String render(String javadoc) {
        return javadoc.replaceAll("\\{@code ([^}]+)}", "`$1`")
                .replaceAll("\\{@link #(\\w+)\\(\\)}", "$1")
                .replaceAll("\\s+", " ").trim();
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }

    private static List<String> sources() throws IOException {
        try (var files = Files.walk(Path.of("src/main/java"))) {
            return files.filter(f -> f.toString().endsWith(".java")).map(f -> {
                try {
                    return Files.readString(f);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

}
