package dev.stockhold.inventory;

import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A stock item as the API shows it. */
@Schema(name = "Item")
@RegisterForReflection(ignoreNested = false)
public record ItemView(@Schema(required = true, example = "A-1") String sku, @Schema(required = true, example = "100") long available) {
}
