package dev.stockhold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;

import dev.stockhold.support.Repository;

/**
 * Small enough to read: no source file of the service or of the chaos harness over {@value #MAX_CLASS} lines, no
 * method or constructor over {@value #MAX_METHOD}, measured on the syntax tree (JavaParser), comments included.
 */
class CodeShapeTest {

    static final int MAX_CLASS = 300;
    static final int MAX_METHOD = 60;

    private final JavaParser parser = new JavaParser(new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17));

    @Test
    void classesAndMethodsStaySmall() throws IOException {
        List<String> tooLong = new ArrayList<>();
        for (Path file : sources()) {
            CompilationUnit unit = parser.parse(file).getResult().orElseThrow(() -> new IllegalStateException("cannot parse " + file));
            String name = Repository.path("").relativize(file).toString();
            int fileLines = Files.readAllLines(file).size();
            if (fileLines > MAX_CLASS) {
                tooLong.add(name + " has " + fileLines + " lines");
            }
            for (CallableDeclaration<?> callable : unit.findAll(CallableDeclaration.class)) {
                if (lines(callable) > MAX_METHOD) {
                    tooLong.add(name + ": " + callable.getDeclarationAsString(false, false, false) + " has " + lines(callable) + " lines");
                }
            }
        }
        assertThat(tooLong).isEmpty();
    }

    /** The service's main sources, the Java client's and the chaos harness without its tests. */
    private static List<Path> sources() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String root : List.of("src/main/java", "clients/java/src/main/java", "src/test/java/dev/stockhold/chaos")) {
            try (Stream<Path> walk = Files.walk(Repository.path(root))) {
                walk.filter(f -> f.toString().endsWith(".java")).filter(f -> !f.getFileName().toString().matches(".*(Test|IT)\\.java"))
                        .forEach(files::add);
            }
        }
        return files;
    }

    private static int lines(Node node) {
        return node.getRange().map(r -> r.end.line - r.begin.line + 1).orElse(0);
    }
}
