package dev.stockhold.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The log records of the service under test (a {@code @QuarkusTest} runs it in the test's JVM), captured from the root
 * logger while open: for tests that assert what is logged, and for assertions that say why the server failed when they
 * fail (a 500's cause is in the log, not in its answer).
 */
public final class ServerLog implements AutoCloseable {

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private ServerLog() {
        Logger.getLogger("").addHandler(capture);
    }

    /** Starts capturing; close to stop. */
    public static ServerLog open() {
        return new ServerLog();
    }

    @Override
    public void close() {
        Logger.getLogger("").removeHandler(capture);
    }

    /** Every record so far. */
    public List<LogRecord> records() {
        return List.copyOf(records);
    }

    /** The ERROR records so far, but the test's own HTTP clients'. */
    public List<LogRecord> errors() {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.SEVERE.intValue())
                .filter(r -> r.getLoggerName() == null || !r.getLoggerName().contains("HttpClient")).toList();
    }

    /** The ERROR records as text, each with its exception chain and where it was thrown: for an assertion's description. */
    public String errorsText() {
        return errors().stream().map(r -> fullText(r) + whereThrown(r)).collect(Collectors.joining("\n", "\n", ""));
    }

    /** The message, its parameters and every throwable's message in the chain: all a log line can carry. */
    public static String fullText(LogRecord record) {
        StringBuilder text = new StringBuilder(String.valueOf(record.getMessage()));
        if (record.getParameters() != null) {
            for (Object parameter : record.getParameters()) {
                text.append(' ').append(parameter);
            }
        }
        for (Throwable t = record.getThrown(); t != null; t = t.getCause()) {
            text.append(' ').append(t);
            for (Throwable suppressed : t.getSuppressed()) {
                text.append(' ').append(suppressed);
            }
        }
        return text.toString();
    }

    /** The first frames of the innermost throwable. */
    private static String whereThrown(LogRecord record) {
        Throwable innermost = record.getThrown();
        if (innermost == null) {
            return "";
        }
        while (innermost.getCause() != null) {
            innermost = innermost.getCause();
        }
        return Stream.of(innermost.getStackTrace()).limit(12).map(f -> "\n    at " + f).collect(Collectors.joining());
    }
}
