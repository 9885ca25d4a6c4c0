package dev.stockhold.supply;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A purchase order as the API shows it: units a location expects by a date, and what arrived. */
@Schema(name = "PurchaseOrder")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PurchaseOrder(
        @Schema(required = true) UUID id,
        @Schema(required = true, example = "A-1") String sku,
        @Schema(required = true, example = "WH-1") String location,
        @Schema(required = true, example = "20", description = "Units ordered") long quantity,
        @Schema(required = true, example = "5", description = "Units received so far") long received,
        @Schema(required = true, example = "15",
                description = "Units still expected: quantity - received while OPEN, else 0") long expected,
        @Schema(required = true, enumeration = {
                "OPEN", "RECEIVED", "CLOSED" },
                description = "OPEN while units are expected; RECEIVED when all arrived; CLOSED when the rest will not come") String status,
        @Schema(required = true, description = "When the units are expected (ISO-8601 UTC)") Instant expectedAt,
        @Schema(description = "The client's document, when given", example = "PO-4410") String reference,
        @Schema(required = true, description = "ISO-8601 UTC") Instant createdAt,
        @Schema(required = true, description = "ISO-8601 UTC") Instant updatedAt,
        @Schema(required = true, example = "1", description = "Rises on every receipt and on the close; the ETag") long version){

    public static final String OPEN = "OPEN";

    @JsonIgnore
    public String etag() {
        return "\"" + version + "\"";
    }

    @JsonIgnore
    public String path() {
        return "/v1/purchase-orders/" + id;
    }
}
