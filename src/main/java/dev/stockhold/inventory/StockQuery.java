package dev.stockhold.inventory;

import java.util.ArrayList;
import java.util.List;

import dev.stockhold.web.Cursors;
import dev.stockhold.web.Params;
import dev.stockhold.web.ValidationFailedException;

/**
 * One page request of GET /v1/items: the tenant's stock records in (sku, location) order, optionally of some skus, at
 * one location or a channel's locations, and below an available threshold. Each shape walks one index that leads with tenant_id (the primary key, or
 * (tenant_id, location, sku) for one location), so a page is a range scan after the cursor's position: no OFFSET.
 */
public record StockQuery(String tenantId, List<String> skus, String location, Channel channel, Long availableBelow, int limit,
        StockKey after) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;
    /** The most skus one request may name. */
    public static final int MAX_SKUS = 100;

    /**
     * Reads and validates the query parameters; every broken one is a 400 that names it.
     *
     * @param skus the repeated {@code sku} parameter: only these skus (none: every sku)
     * @param channel only records at its locations; null: every location
     */
    public static StockQuery of(String tenantId, List<String> skus, String location, Channel channel, String availableBelow, String limit,
            String cursor, Cursors cursors) {
        if (location != null) {
            Sku.require("location", location);
        }
        if (skus.size() > MAX_SKUS) {
            throw new ValidationFailedException("sku", "at most " + MAX_SKUS + " skus, not " + skus.size());
        }
        skus.forEach(sku -> Sku.require("sku", sku));
        List<String> only = skus.stream().distinct().sorted().toList();
        Long below = availableBelow == null ? null : (long) Params.integer("availableBelow", availableBelow, 0, 1_000_000_000, 0);
        StockQuery query = new StockQuery(tenantId, only, location, channel, below,
                Params.integer("limit", limit, 1, MAX_LIMIT, DEFAULT_LIMIT), null);
        if (cursor == null) {
            return query;
        }
        List<String> position = cursors.decode(query.binding(), cursor, 2);
        return new StockQuery(tenantId, only, location, channel, below, query.limit, new StockKey(position.get(0), position.get(1)));
    }

    /** The cursor that continues after {@code last}. */
    public String encode(StockKey last, Cursors cursors) {
        return cursors.encode(binding(), List.of(last.sku(), last.location()));
    }

    String sql() {
        StringBuilder where = new StringBuilder("s.tenant_id = ?");
        if (!skus.isEmpty()) {
            where.append(" AND s.sku = ANY (?::varchar[])");
        }
        if (location != null) {
            where.append(" AND s.location = ?");
        }
        if (channel != null) {
            where.append(" AND s.location = ANY (?::varchar[])");
        }
        if (after != null) {
            where.append(" AND (s.sku, s.location) > (?, ?)");
        }
        if (availableBelow != null) {
            where.append(" AND " + Reservable.AVAILABLE_SQL + " < ?");
        }
        return "SELECT " + StockRow.COLUMNS + " FROM stock_records s WHERE " + where
                + " ORDER BY s.sku, s.location LIMIT ?";
    }

    List<Object> arguments() {
        List<Object> args = new ArrayList<>();
        args.add(tenantId);
        if (!skus.isEmpty()) {
            args.add(skus.toArray(String[]::new));
        }
        if (location != null) {
            args.add(location);
        }
        if (channel != null) {
            args.add(channel.locations().toArray(String[]::new));
        }
        if (after != null) {
            args.add(after.sku());
            args.add(after.location());
        }
        if (availableBelow != null) {
            args.add(availableBelow);
        }
        args.add(limit + 1);
        return args;
    }

    /** What a cursor is bound to: a query without skus or channel keeps the binding it had before the parameter existed. */
    private List<String> binding() {
        List<String> binding = new ArrayList<>(List.of("items", tenantId, String.valueOf(location), String.valueOf(availableBelow)));
        if (!skus.isEmpty()) {
            binding.add(String.join(",", skus));
        }
        if (channel != null) {
            binding.add("channel=" + channel.channel());
        }
        return binding;
    }
}
