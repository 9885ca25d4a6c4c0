package dev.stockhold.inventory;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One entry of a stock record's movement ledger: a change of on hand, committed or in transit, and the record as it left
 * it.
 */
@Schema(name = "StockMovement")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Movement(
        @Schema(required = true, description = "Contiguous per stock record from 1", example = "7") long seq,
        @Schema(required = true, enumeration = {
                "opening", "set", "adjust", "confirm", "fulfil", "release", "snapshot", "transfer-out", "in-transit", "transfer-in",
                "transfer-return", "purchase-receipt" },
                description = "opening: what the record held when the ledger began; transfer-out: shipped from this record; "
                        + "in-transit: shipped to it (or a cancel took back what was on its way); transfer-in: received here; "
                        + "transfer-return: a cancel returned it here; purchase-receipt: a purchase order's units arrived") String kind,
        @Schema(required = true, description = "What the change added to on hand", example = "-3") long onHandDelta,
        @Schema(required = true, description = "What the change added to committed", example = "0") long committedDelta,
        @Schema(required = true, description = "On hand after the change", example = "97") long onHand,
        @Schema(required = true, description = "Committed after the change", example = "0") long committed,
        @Schema(required = true, description = "The record's version after the change", example = "4") long version,
        @Schema(description = "The reason an admin gave") String reason,
        @Schema(description = "The document behind a set or adjustment (an absolute URI)") String reference,
        @Schema(description = "The subject (sub) of the token that made the change") String actor,
        @Schema(description = "The reservation whose confirm, fulfilment or release made the change") UUID reservationId,
        @Schema(description = "The Idempotency-Key of the request that made the change") String idempotencyKey,
        @Schema(required = true, description = "When the change's transaction started, UTC") Instant at,
        @Schema(required = true, description = "What the change added to in transit (transfers only; 0 otherwise)",
                example = "0") long inTransitDelta,
        @Schema(description = "The transfer that made the change") UUID transferId,
        @Schema(description = "The purchase order whose receipt made the change") UUID purchaseOrderId){

    /** One page of GET .../movements, newest first. */
    @Schema(name = "StockMovementList")
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Page(@Schema(required = true) List<Movement> items,
            @Schema(description = "Pass as cursor to read the next (older) page; absent on the last page") String nextCursor,
            @Schema(description = "The time of the record's newest entry, as a cursor: pass it as asOfCursor of a snapshot at this "
                    + "location counted after this read, and only what the ledger records after it is applied on top of the count. "
                    + "On a first page without to or kind, when the record has entries") String watermark) {
    }
}
