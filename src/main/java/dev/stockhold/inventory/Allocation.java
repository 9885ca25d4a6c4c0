package dev.stockhold.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which stock record serves each line. A line that names a location is served there or not at all; a line without one
 * is served whole by the first record of its sku, in allocation order, whose available covers it (never split; a
 * request that asks for split or partial allocation is placed by {@link #spread} instead). Works
 * on a snapshot read without locks: the conditional hold that follows is what guarantees I1.
 */
public sealed interface Allocation {

    /** One line to place. */
    record Line(String sku, String location, long quantity) {
    }

    /** Every line has a record; {@code keys} are in line order. */
    record Placed(List<StockKey> keys) implements Allocation {
    }

    /**
     * A split or partial request placed: per line (in line order), the units each record gives, in allocation order;
     * empty for a line of a partial request that got none.
     */
    record Spread(List<List<Part>> lines) implements Allocation {
    }

    /**
     * How far a split or partial request may spread: the records one line may be served from, and the records all its
     * lines together, so neither the reservation's lines, its stored answer nor its event grows with the number of
     * locations a sku is stocked at.
     */
    public record Bounds(int locationsPerLine, int allocationsPerReservation) {
    }

    /** Units of a line served by one record. */
    record Part(StockKey key, long quantity) {
    }

    /** Some line cannot be served: the skus without a record where asked (422), and those short everywhere (409). */
    record Refused(List<String> unknown, List<String> shortSkus) implements Allocation {
    }

    /**
     * @param candidates the records of the lines' skus in allocation order ({@link StockMoves#candidates})
     * @param taken units already placed on a record by earlier requests of the same group; updated with these lines
     */
    static Allocation of(List<Line> lines, List<Candidate> candidates, Map<StockKey, Long> taken) {
        List<StockKey> keys = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        Set<String> shortSkus = new LinkedHashSet<>();
        for (Line line : lines) {
            boolean known = false;
            StockKey chosen = null;
            for (Candidate c : candidates) {
                if (!c.key().sku().equals(line.sku()) || (line.location() != null && !c.key().location().equals(line.location()))) {
                    continue;
                }
                known = true;
                if (c.available() - taken.getOrDefault(c.key(), 0L) >= line.quantity()) {
                    chosen = c.key();
                    break;
                }
            }
            if (!known) {
                unknown.add(line.sku());
            } else if (chosen == null) {
                shortSkus.add(line.sku());
            } else {
                keys.add(chosen);
                taken.merge(chosen, line.quantity(), Long::sum);
            }
        }
        return unknown.isEmpty() && shortSkus.isEmpty() ? new Placed(keys) : new Refused(List.copyOf(unknown), List.copyOf(shortSkus));
    }

    /**
     * Split or partial allocation: a line without a location takes what each record of its sku has, in allocation order,
     * until it is served, from at most {@link Bounds#locationsPerLine()} records and {@link Bounds#allocationsPerReservation()}
     * for the whole request; a line with one takes it there. Split refuses a request any line of which is not served in
     * full; partial serves each line as far as stock goes and refuses only a request that gets nothing at all.
     *
     * @param candidates the records of the lines' skus in allocation order, read under their row locks: what this
     *            computes is then exactly what the conditional hold that follows takes
     * @param partial whether a line may get less than it asked for
     */
    static Allocation spread(List<Line> lines, List<Candidate> candidates, boolean partial, Bounds bounds) {
        return spread(lines, candidates, partial, partial, bounds);
    }

    /**
     * What the shelf gives a backorder request: split as {@link #spread} does, each line as far as stock goes, and never
     * refused for being short (the rest is promised from incoming supply); only unknown skus refuse it.
     */
    static Allocation shelf(List<Line> lines, List<Candidate> candidates, Bounds bounds) {
        return spread(lines, candidates, true, false, bounds);
    }

    private static Allocation spread(List<Line> lines, List<Candidate> candidates, boolean partial, boolean refuseNone, Bounds bounds) {
        Map<StockKey, Long> taken = new HashMap<>();
        int allocations = 0;
        List<List<Part>> placed = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        Set<String> shortSkus = new LinkedHashSet<>();
        long served = 0;
        for (Line line : lines) {
            List<Part> parts = new ArrayList<>();
            long remaining = line.quantity();
            boolean known = false;
            for (Candidate c : candidates) {
                if (!c.key().sku().equals(line.sku()) || (line.location() != null && !c.key().location().equals(line.location()))) {
                    continue;
                }
                known = true;
                if (remaining == 0 || parts.size() == bounds.locationsPerLine() || allocations == bounds.allocationsPerReservation()) {
                    break; // what a line may not take beyond its bounds is short, as if the stock were not there
                }
                long take = Math.min(remaining, c.available() - taken.getOrDefault(c.key(), 0L));
                if (take > 0) {
                    allocations++;
                    parts.add(new Part(c.key(), take));
                    taken.merge(c.key(), take, Long::sum);
                    remaining -= take;
                }
            }
            if (!known) {
                unknown.add(line.sku());
            } else if (remaining > 0 && !partial) {
                shortSkus.add(line.sku());
            }
            served += line.quantity() - remaining;
            placed.add(List.copyOf(parts));
        }
        if (refuseNone && unknown.isEmpty() && shortSkus.isEmpty() && served == 0) {
            // partial, and nothing anywhere: refused as a whole request would be
            lines.forEach(line -> shortSkus.add(line.sku()));
        }
        return unknown.isEmpty() && shortSkus.isEmpty() ? new Spread(placed) : new Refused(List.copyOf(unknown), List.copyOf(shortSkus));
    }
}
