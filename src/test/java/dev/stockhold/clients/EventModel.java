package dev.stockhold.clients;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The Java client's event payload records: the service's own records (dev.stockhold.events, which EventContractTest
 * holds to the published JSON Schemas), moved to the client's package without the Quarkus annotation. ClientModelTest
 * compares the result with the committed sources.
 */
final class EventModel {

    static final String PACKAGE = "dev.stockhold.client.events.data";
    /** The service's routing and ordering types, which a consumer does not need. */
    private static final Set<String> SERVICE_ONLY = Set.of("EventType.java", "AggregateType.java", "package-info.java");

    private EventModel() {
    }

    /** File name to source, for every payload record of the service. */
    static Map<String, String> sources(Path serviceEvents) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(serviceEvents)) {
            for (Path file : list.sorted().toList()) {
                String name = file.getFileName().toString();
                if (!SERVICE_ONLY.contains(name)) {
                    files.put(name, copy(Files.readString(file)));
                }
            }
        }
        return files;
    }

    private static String copy(String source) {
        return source
                .replace("package dev.stockhold.events;",
                        "package " + PACKAGE + ";\n\n// Copied from the service's events package by ClientModelTest: do not edit.")
                .replace("import io.quarkus.runtime.annotations.RegisterForReflection;\n\n", "")
                .replace("import io.quarkus.runtime.annotations.RegisterForReflection;\n", "")
                .replaceAll("@RegisterForReflection(\\([^)]*\\))?\n", "");
    }
}
