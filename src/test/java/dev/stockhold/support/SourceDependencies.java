package dev.stockhold.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The service's package dependencies as its source states them: every import (static ones included) and every
 * qualified name {@code dev.stockhold.pkg.Type} outside comments and string literals. Bytecode loses a dependency on a
 * compile-time constant, which the compiler inlines; the source keeps it.
 */
public final class SourceDependencies {

    private static final Pattern PACKAGE = Pattern.compile("^package dev\\.stockhold(?:\\.([a-z]+))?[.;a-z]*", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.stockhold\\.(?:([a-z]+)\\.)?([A-Z]\\w*)");
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile(
            "//[^\\n]*|/\\*.*?\\*/|\"\"\"(?s:.*?)\"\"\"|\"(?:\\\\.|[^\"\\\\])*\"",
            Pattern.DOTALL);

    /** Classes in one of {@code from} (top-level package names under dev.stockhold; "" the root) may not use {@code forbidden}. */
    public record Rule(String name, List<String> from, List<String> forbidden) {
    }

    private SourceDependencies() {
    }

    /** Every violation of the rules in the .java files under {@code root}, one line each. */
    public static List<String> violations(Path root, List<Rule> rules) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> {
                try {
                    found.addAll(violations(root.relativize(f).toString(), Files.readString(f), rules));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
        return found;
    }

    /** The violations of one source file. */
    public static List<String> violations(String file, String source, List<Rule> rules) {
        String code = COMMENTS_AND_STRINGS.matcher(source).replaceAll(" ");
        Matcher declared = PACKAGE.matcher(code);
        if (!declared.find()) {
            return List.of();
        }
        String pkg = declared.group(1) == null ? "" : declared.group(1);
        List<String> found = new ArrayList<>();
        Matcher used = REFERENCE.matcher(code);
        while (used.find()) {
            String target = used.group(1) == null ? "" : used.group(1);
            if (target.equals(pkg)) {
                continue;
            }
            for (Rule rule : rules) {
                if (rule.from().contains(pkg) && rule.forbidden().contains(target)) {
                    String name = "dev.stockhold." + (target.isEmpty() ? "" : target + ".") + used.group(2);
                    String line = file + " (" + (pkg.isEmpty() ? "root" : pkg) + ") uses " + name + ": " + rule.name();
                    if (!found.contains(line)) {
                        found.add(line);
                    }
                }
            }
        }
        return found;
    }
}
