package dev.stockhold.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Checkers from npm (Stoplight Prism, the AsyncAPI parser), installed once into {@code target/<dir>}. Without npm the
 * test is skipped, except in CI, which installs npm (.ci/run): there a missing npm fails it.
 */
public final class NpmTools {

    private NpmTools() {
    }

    /**
     * @param dir the folder under target, e.g. {@code prism}
     * @param pkg the package at its pinned version, e.g. {@code @asyncapi/parser@3.6.3}
     * @param installed a path under {@code target/<dir>} that exists once the package is installed
     */
    public static void install(String dir, String pkg, Path installed) throws Exception {
        if (Files.exists(installed)) {
            return;
        }
        requireNpm("the check with " + pkg);
        Path log = Path.of("target", dir + "-install.log");
        Process install = new ProcessBuilder("npm", "install", "--prefix", "target/" + dir, "--no-audit", "--no-fund", pkg)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(install.waitFor(5, TimeUnit.MINUTES) && install.exitValue() == 0).as("npm install %s (see %s)", pkg, log).isTrue();
    }

    /** Skips the test without npm, except in CI (which installs it), where a missing npm fails it. */
    public static void requireNpm(String what) {
        assertThat(onPath("npm") || !"true".equals(System.getenv("CI"))).as("npm on the PATH in CI").isTrue();
        Assumptions.assumeTrue(onPath("npm"), "npm is not installed: " + what + " is skipped");
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
