package dev.stockhold.client;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** A keyset list as a lazy stream: the next page is read, with the last page's cursor, when the stream reaches it. */
final class Pages {

    /** One page: its items and the cursor of the next, null at the end. */
    record Page<T>(List<T> items, String nextCursor) {
    }

    private Pages() {
    }

    static <T> Stream<T> stream(Function<String, Page<T>> read) {
        Iterator<T> items = new Iterator<>() {
            private Iterator<T> page = List.<T>of().iterator();
            private String cursor;
            private boolean last;

            @Override
            public boolean hasNext() {
                while (!page.hasNext() && !last) {
                    Page<T> next = read.apply(cursor);
                    page = next.items() == null ? List.<T>of().iterator() : next.items().iterator();
                    cursor = next.nextCursor();
                    last = cursor == null;
                }
                return page.hasNext();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.next();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(items, Spliterator.ORDERED | Spliterator.NONNULL), false);
    }
}
