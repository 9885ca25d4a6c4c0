package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.stockhold.support.Repository;

/**
 * The layout in {@code docs/testing.md} names every class of the service and the chaos harness (main and test) and
 * every script of {@code bench/}: a class or script added, renamed or removed without the layout following fails here.
 */
class LayoutDocTest {

    static final Path DOCS = Repository.path("docs/testing.md");

    @Test
    void shouldNameEveryClassAndBenchScriptInTheLayout() throws IOException {
        String layout = Files.readString(DOCS);
        layout = layout.substring(layout.indexOf("### Layout"));
        List<String> names = Stream.concat(classes(), benchScripts()).toList();
        assertThat(names).hasSizeGreaterThan(250);

        String text = layout;
        List<String> missing = names.stream()
                .filter(name -> !Pattern.compile("(?<![\\w.-])" + Pattern.quote(name) + "(?![\\w-])").matcher(text).find()).toList();
        assertThat(missing).as("named nowhere in the layout of %s", DOCS).isEmpty();
    }

    private static Stream<String> classes() throws IOException {
        // the Java client's hand-written classes; its model and event records are generated (ClientModelTest)
        return Stream.of("src/main/java", "src/test/java", "clients/java/src/main/java", "clients/java/src/test/java")
                .map(Repository::path).flatMap(LayoutDocTest::javaFiles)
                .filter(file -> !file.toString().contains("/client/model/") && !file.toString().contains("/client/events/data/"))
                .map(file -> file.getFileName().toString().replaceFirst("\\.java$", ""))
                .filter(name -> !name.equals("package-info"));
    }

    private static Stream<Path> javaFiles(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Stream<String> benchScripts() throws IOException {
        try (Stream<Path> files = Files.list(Repository.path("bench"))) {
            return files.filter(Files::isRegularFile).map(f -> f.getFileName().toString())
                    .filter(name -> !name.equals("README.md")).toList().stream();
        }
    }
}
