package dev.stockhold.inventory;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

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
        @Schema(required = true) List<StockRecord> locations) {

    public static ItemView of(String sku, List<StockRecord> records) {
        return new ItemView(sku, records.stream().mapToLong(StockRecord::onHand).sum(),
                records.stream().mapToLong(StockRecord::held).sum(), records.stream().mapToLong(StockRecord::committed).sum(),
                records.stream().mapToLong(StockRecord::available).sum(),
                records);
    }
}
