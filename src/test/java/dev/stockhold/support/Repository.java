package dev.stockhold.support;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Paths in the repository, whatever the working directory: Maven runs each module's tests in that module's directory
 * (service/, chaos/), while the manifests, docs, scripts and the Maven wrapper live at the repository's root.
 */
public final class Repository {

    private static final Path ROOT = find();

    private Repository() {
    }

    /** A path from the repository's root, such as {@code k8s/base/deployment.yaml}. */
    public static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    /** A path in the service module, such as {@code target/quarkus-app/quarkus-run.jar}. */
    public static Path service(String relative) {
        return ROOT.resolve("service").resolve(relative);
    }

    private static Path find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("service"))) {
                return dir;
            }
        }
        throw new IllegalStateException("not inside the Stockhold repository: " + Path.of("").toAbsolutePath());
    }
}
