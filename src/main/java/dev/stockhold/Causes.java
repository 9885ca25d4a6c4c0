package dev.stockhold;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/** An exception's cause chain, walked in one place. */
public final class Causes {

    private Causes() {
    }

    /** The exception and its causes, outermost first. */
    public static Stream<Throwable> of(Throwable e) {
        return Stream.iterate(e, Objects::nonNull, Throwable::getCause);
    }

    /** Whether the exception or any of its causes is of this type. */
    public static boolean any(Throwable e, Class<? extends Throwable> type) {
        return of(e).anyMatch(type::isInstance);
    }

    /**
     * What failed, fit for a log line: the chain of exception types, the SQLState of any SQL error, and the innermost
     * Stockhold frame, never a message. Driver and ORM messages carry the statement and its bind values (a reference,
     * a key, metadata), which the logs never hold.
     */
    public static String summary(Throwable e) {
        StringBuilder summary = new StringBuilder();
        of(e).forEach(cause -> summary.append(summary.length() == 0 ? "" : " < ").append(facts(cause, cause.getClass().getSimpleName())));
        List<Throwable> innermostFirst = new ArrayList<>(of(e).toList());
        Collections.reverse(innermostFirst);
        innermostFirst.stream().flatMap(cause -> Stream.of(cause.getStackTrace()))
                .filter(frame -> frame.getClassName().startsWith("dev.stockhold.") && !frame.getClassName().contains("$"))
                .findFirst()
                .ifPresent(frame -> summary.append(" at ").append(frame.getClassName().substring("dev.stockhold.".length()))
                        .append('.').append(frame.getMethodName()).append(':').append(frame.getLineNumber()));
        return summary.toString();
    }

    /**
     * The same chain with every message replaced by {@link #summary}-style facts, keeping the stack traces: an
     * unexpected failure is logged with where it happened, never with what the statement carried.
     */
    public static Throwable redacted(Throwable e) {
        Throwable[] chain = of(e).toArray(Throwable[]::new);
        Throwable redacted = null;
        for (int i = chain.length - 1; i >= 0; i--) {
            Throwable cause = chain[i];
            Throwable copy = new Redacted(facts(cause, cause.getClass().getName()), redacted);
            copy.setStackTrace(cause.getStackTrace());
            redacted = copy;
        }
        return redacted;
    }

    /** The exception's type as named, and the SQLState of an SQL error: never its message. */
    private static String facts(Throwable cause, String name) {
        return cause instanceof SQLException sql && sql.getSQLState() != null ? name + " (SQLState " + sql.getSQLState() + ")" : name;
    }

    /** A logged stand-in for an exception whose message may hold request values. */
    static final class Redacted extends RuntimeException {
        Redacted(String facts, Throwable cause) {
            super(facts, cause);
        }
    }

    /**
     * The innermost cause as "Type: message", for health details and connection-level failures (never for clients,
     * never for failures of a statement: use {@link #summary}).
     */
    public static String rootMessage(Throwable e) {
        Throwable root = of(e).reduce((outer, inner) -> inner).orElse(e);
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
