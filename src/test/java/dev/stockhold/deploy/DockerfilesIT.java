package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.stockhold.support.Repository;

/**
 * What can be checked of both Dockerfiles without building them: every instruction is a Dockerfile instruction, and
 * every file a {@code COPY} takes from the build context (the repository's root) exists after {@code ./mvnw package} (this runs in the
 * integration-test phase, after packaging). The JVM image is also built and run, by {@link ContainerImageIT}; the
 * native one cannot be built on a machine without GraalVM's static JDK libraries.
 */
class DockerfilesIT {

    static final Set<String> INSTRUCTIONS = Set.of("FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
            "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL");

    @ParameterizedTest
    @ValueSource(strings = { "docker/Dockerfile.jvm", "docker/Dockerfile.native" })
    void shouldOnlyCopyWhatTheBuildProduces(String dockerfile) throws IOException {
        List<String> instructions = instructions(Repository.path(dockerfile));
        assertThat(instructions).isNotEmpty();
        // only ARGs (the base image's, for instance) may come before the first FROM
        assertThat(instructions.stream().dropWhile(i -> i.startsWith("ARG ")).findFirst()).hasValueSatisfying(
                first -> assertThat(first).startsWith("FROM "));
        assertThat(instructions).anyMatch(i -> i.startsWith("USER ") && !i.equals("USER root") && !i.equals("USER 0"));
        assertThat(instructions.get(instructions.size() - 1)).startsWith("ENTRYPOINT");

        for (String instruction : instructions) {
            String keyword = instruction.split("\\s+")[0];
            assertThat(INSTRUCTIONS).as("instruction in %s", dockerfile).contains(keyword);
            if (keyword.equals("COPY") && !instruction.contains("--from=")) {
                List<String> args = new ArrayList<>(
                        Arrays.stream(instruction.split("\\s+")).skip(1).filter(a -> !a.startsWith("--")).toList());
                args.remove(args.size() - 1);
                for (String source : args) {
                    assertThat(matches(source)).as("%s: COPY source %s exists in the build context", dockerfile, source).isTrue();
                }
            }
        }
    }

    /** The runtime stage's files belong to root: the process (a non-root user) cannot change its own code. */
    @ParameterizedTest
    @ValueSource(strings = { "docker/Dockerfile.jvm", "docker/Dockerfile.native" })
    void shouldGiveTheApplicationToRoot(String dockerfile) throws IOException {
        List<String> instructions = instructions(Repository.path(dockerfile));
        int lastFrom = 0;
        for (int i = 0; i < instructions.size(); i++) {
            if (instructions.get(i).startsWith("FROM ")) {
                lastFrom = i;
            }
        }
        List<String> runtime = instructions.subList(lastFrom, instructions.size());
        assertThat(runtime).filteredOn(i -> i.startsWith("COPY ")).isNotEmpty()
                .allSatisfy(copy -> {
                    assertThat(copy).as("%s", dockerfile).containsAnyOf("--chown=0:0", "--chown=root:root");
                    java.util.regex.Matcher chmod = java.util.regex.Pattern.compile("--chmod=([0-7]+)").matcher(copy);
                    assertThat(chmod.find()).as("%s: an octal --chmod", copy).isTrue();
                    assertThat(Integer.parseInt(chmod.group(1), 8) & 022).as("%s: group/other write", copy).isZero();
                });
        assertThat(runtime).noneMatch(i -> i.startsWith("RUN ") && i.contains("chown"));
    }

    private static boolean matches(String source) throws IOException {
        Path path = Repository.path(source);
        if (!source.contains("*")) {
            return Files.exists(path);
        }
        try (DirectoryStream<Path> found = Files.newDirectoryStream(path.getParent(), path.getFileName().toString())) {
            return found.iterator().hasNext();
        }
    }

    /** Instructions with line continuations joined and comments dropped. */
    private static List<String> instructions(Path file) throws IOException {
        List<String> joined = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(file)) {
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
            } else {
                joined.add(current.append(trimmed).toString());
                current.setLength(0);
            }
        }
        return joined;
    }
}
