package dev.stockhold;

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

    /** The innermost cause as "Type: message", for logs and health details (never for clients). */
    public static String rootMessage(Throwable e) {
        Throwable root = of(e).reduce((outer, inner) -> inner).orElse(e);
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
