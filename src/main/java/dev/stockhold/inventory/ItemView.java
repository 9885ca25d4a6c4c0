package dev.stockhold.inventory;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A stock item as the API shows it. */
@Schema(name = "Item")
public record ItemView(@Schema(example = "A-1") String sku, @Schema(example = "100") long available) {
}
