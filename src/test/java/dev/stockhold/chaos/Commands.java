package dev.stockhold.chaos;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The harness's shell commands (ip, kill, rm, pg_ctlcluster, rabbitmqctl, pg_autoctl): run, waited for, checked. */
final class Commands {

    private Commands() {
    }

    /** Runs the command to its end (at most two minutes); fails with its output unless it exits 0. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output.trim());
        }
        return output;
    }

    static String run(String... command) throws IOException, InterruptedException {
        return run(List.of(command));
    }

    /** Whether the command exits 0; never fails. */
    static boolean succeeds(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
