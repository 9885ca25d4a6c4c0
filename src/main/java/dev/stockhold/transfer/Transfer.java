package dev.stockhold.transfer;

import java.time.Instant;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A transfer as the API shows it: what was shipped, what arrived, what a cancel returned, and what is still on its way. */
@Schema(name = "Transfer")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Transfer(
        @Schema(required = true) UUID id,
        @Schema(required = true, example = "A-1") String sku,
        @Schema(required = true, example = "WH-1", description = "The location the units left") String from,
        @Schema(required = true, example = "WH-2", description = "The location they are on their way to") String to,
        @Schema(required = true, example = "10", description = "Units shipped") long quantity,
        @Schema(required = true, example = "4", description = "Units received at the destination so far") long received,
        @Schema(required = true, example = "0", description = "Units a cancel returned to the origin") long returned,
        @Schema(required = true, example = "6", description = "quantity - received - returned: still on their way") long inTransit,
        @Schema(required = true, enumeration = {
                "IN_TRANSIT", "RECEIVED", "CANCELLED" },
                description = "IN_TRANSIT while units are on their way; RECEIVED when all arrived; CANCELLED when a cancel returned the rest") String status,
        @Schema(description = "The client's document, when given", example = "TO-1093") String reference,
        @Schema(description = "When the destination expects the units, when given (ISO-8601 UTC)") Instant expectedAt,
        @Schema(required = true, description = "ISO-8601 UTC") Instant createdAt,
        @Schema(required = true, description = "ISO-8601 UTC") Instant updatedAt,
        @Schema(required = true, example = "1", description = "Rises on every receipt and on the cancel; the ETag") long version){

    public static final String IN_TRANSIT = "IN_TRANSIT";
    public static final String RECEIVED = "RECEIVED";
    public static final String CANCELLED = "CANCELLED";

    /** The strong entity tag of this version. */
    @JsonIgnore
    public String etag() {
        return "\"" + version + "\"";
    }

    /** The path of this transfer, as Location carries it. */
    @JsonIgnore
    public String path() {
        return "/v1/transfers/" + id;
    }
}
