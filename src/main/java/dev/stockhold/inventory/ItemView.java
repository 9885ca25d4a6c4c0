package dev.stockhold.inventory;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A sku's stock as the API shows it: totals over its locations (v1's available among them) and each location's record. */
@Schema(name = "Item")
@RegisterForReflection(ignoreNested = false)
public record ItemView(
        @Schema(required = true, example = "A-1") String sku,
        @Schema(required = true, description = "Sum over locations", example = "100") long onHand,
        @Schema(required = true, description = "Sum over locations", example = "3") long held,
        @Schema(required = true, description = "Sum over locations", example = "0") long committed,
        @Schema(required = true, description = "Sum over locations: onHand - held - committed", example = "97") long available,
        @Schema(required = true,
                description = "Each location's record; through a channel, only its locations, in its order") List<StockRecord> locations,
        @Schema(example = "b2b",
                description = "The channel asked for: totals and records are over its locations only") @JsonInclude(JsonInclude.Include.NON_NULL) String channel,
        @Schema(description = "What could be promised now (reservable) and by each expected date of incoming supply not yet "
                + "promised, cumulative") @JsonInclude(JsonInclude.Include.NON_NULL) List<Promisable> availableToPromise) {

    /** The item with what could be promised by date. */
    public ItemView withAvailableToPromise(List<Promisable> dates) {
        return new ItemView(sku, onHand, held, committed, available, locations, channel, dates);
    }

    /** Reservable summed over the item's records: what could be promised now. */
    public long reservable() {
        return locations.stream().mapToLong(StockRecord::reservable).sum();
    }

    /** @param through the channel the item is read through (only its records, in its order; none: zeros), or null for all */
    public static ItemView of(String sku, List<StockRecord> all, Channel through) {
        List<StockRecord> records = through == null ? all : through.order(all, StockRecord::location);
        return new ItemView(sku, records.stream().mapToLong(StockRecord::onHand).sum(),
                records.stream().mapToLong(StockRecord::held).sum(), records.stream().mapToLong(StockRecord::committed).sum(),
                records.stream().mapToLong(StockRecord::available).sum(), records, through == null ? null : through.channel(), null);
    }
}
