package dev.stockhold.support;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Paths in the repository, whatever the working directory: the manifests, docs, scripts, the Maven wrapper and the
 * service's own {@code src} and {@code target} all live under the repository's root.
 */
public final class Repository {

    private static final Path ROOT = find();

    private Repository() {
    }

    /** A path from the repository's root, such as {@code k8s/base/deployment.yaml}. */
    public static Path path(String relative) {
        return ROOT.resolve(relative);
    }

    private static Path find() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("src/main/java/dev/stockhold"))) {
                return dir;
            }
        }
        throw new IllegalStateException("not inside the Stockhold repository: " + Path.of("").toAbsolutePath());
    }
}
