package dev.stockhold.inventory;

import java.util.Comparator;

/**
 * One stock record's place: a sku at a location. Ordered by sku, then location, in byte order: the one global order in
 * which every writer locks stock records, so two transactions over the same records cannot deadlock.
 */
public record StockKey(String sku, String location) implements Comparable<StockKey> {

    public static final String DEFAULT_LOCATION = "default";
    private static final Comparator<StockKey> ORDER = Comparator.comparing(StockKey::sku).thenComparing(StockKey::location);

    /** The location a line of the previous release was held at: none recorded means {@value #DEFAULT_LOCATION}. */
    public static StockKey of(String sku, String location) {
        return new StockKey(sku, location == null ? DEFAULT_LOCATION : location);
    }

    /** The event subject: {@code sku@location}. */
    public String subject() {
        return sku + "@" + location;
    }

    @Override
    public int compareTo(StockKey other) {
        return ORDER.compare(this, other);
    }
}
