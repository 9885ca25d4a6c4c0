package dev.stockhold.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The allocation of a request with kit lines. A kit line holds its components all or nothing per kit unit: whole, at the
 * first location (in allocation order) where every component covers the units; split or partial, by kit units at each
 * location in turn, as many as every component there covers. The lines are placed in request order against one tally of
 * what earlier lines took, so lines that share a component (two kits, or a kit and the component itself) are summed
 * before the check: never more of a record than it has. Plain lines are placed by the same rules as {@link Allocation}.
 */
public final class KitAllocation {

    /** Kit units of a line at one location. */
    public record Units(String location, long units) {
    }

    /**
     * Every line placed: per line, the records and units it takes (a kit line: its components'), and for a kit line the
     * kit units per location (null for a plain line).
     */
    public record Placed(List<List<Allocation.Part>> parts, List<List<Units>> kitUnits) {
    }

    private KitAllocation() {
    }

    /**
     * @param candidates the records of the lines' skus and of every kit's components, in allocation order, under their row locks
     * @param spread whether a line may take from several locations; {@code partial}: and get less than it asked
     * @return {@link Placed}, or {@link Allocation.Refused} naming the skus without records (components included) and the
     *         lines' skus that cannot be served
     */
    public static Object place(List<Allocation.Line> lines, Map<String, Kit> kits, List<Candidate> candidates, boolean spread,
            boolean partial, int locationsPerLine) {
        Map<StockKey, Long> available = new HashMap<>();
        candidates.forEach(c -> available.put(c.key(), c.available()));
        Map<StockKey, Long> taken = new HashMap<>();
        Set<String> unknown = new LinkedHashSet<>();
        Set<String> shortSkus = new LinkedHashSet<>();
        List<List<Allocation.Part>> parts = new ArrayList<>();
        List<List<Units>> kitUnits = new ArrayList<>();
        long served = 0;
        for (Allocation.Line line : lines) {
            Kit kit = kits.get(line.sku());
            List<Kit.Component> components = kit == null ? List.of(new Kit.Component(line.sku(), 1)) : kit.components();
            components.stream().filter(c -> candidates.stream().noneMatch(x -> x.key().sku().equals(c.sku())))
                    .forEach(c -> unknown.add(c.sku()));
            List<Allocation.Part> taking = new ArrayList<>();
            List<Units> units = new ArrayList<>();
            long remaining = line.quantity();
            for (String location : locations(candidates, components, line.location())) {
                if (remaining == 0 || units.size() == (spread ? locationsPerLine : 1)) {
                    break;
                }
                long fits = Long.MAX_VALUE;
                for (Kit.Component c : components) {
                    StockKey at = new StockKey(c.sku(), location);
                    fits = Math.min(fits, (available.getOrDefault(at, 0L) - taken.getOrDefault(at, 0L)) / c.quantity());
                }
                long take = spread ? Math.min(fits, remaining) : fits >= remaining ? remaining : 0;
                if (take > 0) {
                    units.add(new Units(location, take));
                    for (Kit.Component c : components) {
                        StockKey at = new StockKey(c.sku(), location);
                        taking.add(new Allocation.Part(at, take * c.quantity()));
                        taken.merge(at, take * c.quantity(), Long::sum);
                    }
                    remaining -= take;
                }
            }
            if (remaining > 0 && !partial) {
                shortSkus.add(line.sku());
            }
            served += line.quantity() - remaining;
            parts.add(List.copyOf(taking));
            kitUnits.add(kit == null ? null : List.copyOf(units));
        }
        if (unknown.isEmpty() && shortSkus.isEmpty() && served == 0) {
            lines.forEach(line -> shortSkus.add(line.sku()));
        }
        return unknown.isEmpty() && shortSkus.isEmpty() ? new Placed(parts, kitUnits)
                : new Allocation.Refused(List.copyOf(unknown), List.copyOf(shortSkus));
    }

    /** The locations a line may use, in allocation order: its own if it names one, else those of its components' records. */
    private static List<String> locations(List<Candidate> candidates, List<Kit.Component> components, String named) {
        if (named != null) {
            return List.of(named);
        }
        Set<String> skus = new LinkedHashSet<>(components.stream().map(Kit.Component::sku).toList());
        Set<String> order = new LinkedHashSet<>();
        candidates.stream().filter(c -> skus.contains(c.key().sku())).forEach(c -> order.add(c.key().location()));
        return List.copyOf(order);
    }
}
