package dev.stockhold.inventory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which stock record serves each line. A line that names a location is served there or not at all; a line without one
 * is served whole by the first record of its sku, in allocation order, whose available covers it (never split). Works
 * on a snapshot read without locks: the conditional hold that follows is what guarantees I1.
 */
public sealed interface Allocation {

    /** One line to place. */
    record Line(String sku, String location, long quantity) {
    }

    /** Every line has a record; {@code keys} are in line order. */
    record Placed(List<StockKey> keys) implements Allocation {
    }

    /** Some line cannot be served: the skus without a record where asked (422), and those short everywhere (409). */
    record Refused(List<String> unknown, List<String> shortSkus) implements Allocation {
    }

    /**
     * @param candidates the records of the lines' skus in allocation order ({@link StockRepository#candidates})
     * @param taken units already placed on a record by earlier requests of the same group; updated with these lines
     */
    static Allocation of(List<Line> lines, List<StockRepository.Candidate> candidates, Map<StockKey, Long> taken) {
        List<StockKey> keys = new ArrayList<>();
        Set<String> unknown = new LinkedHashSet<>();
        Set<String> shortSkus = new LinkedHashSet<>();
        for (Line line : lines) {
            boolean known = false;
            StockKey chosen = null;
            for (StockRepository.Candidate c : candidates) {
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
}
