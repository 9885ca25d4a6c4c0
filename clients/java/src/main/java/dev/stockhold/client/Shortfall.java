package dev.stockhold.client;

import java.util.List;

import dev.stockhold.client.model.AvailabilityLine;
import dev.stockhold.client.model.AvailabilityStock;

/**
 * What one line of a refused reservation lacks, as read right after the refusal.
 *
 * @param sku the line's sku
 * @param location the line's location, or null when it named none
 * @param requested the units the line asked for
 * @param reservable what the request's allocation could have taken for it: the most one location could serve (whole
 *        lines), or all its locations together (split and partial)
 * @param missing {@code requested - reservable}
 */
public record Shortfall(String sku, String location, int requested, long reservable, long missing) {

    static Shortfall of(AvailabilityLine line, String allocation) {
        List<AvailabilityStock> stock = line.available() == null ? List.of() : line.available();
        boolean whole = allocation == null || allocation.equals("whole");
        long reservable = whole ? stock.stream().mapToLong(AvailabilityStock::available).max().orElse(0)
                : stock.stream().mapToLong(AvailabilityStock::available).sum();
        reservable = Math.min(reservable, line.quantity());
        return new Shortfall(line.sku(), line.location(), line.quantity(), reservable, line.quantity() - reservable);
    }
}
