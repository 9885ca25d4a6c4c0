package dev.stockhold.client.model;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The StockMovement object of the API.
 *
 * @param seq (required) Contiguous per stock record from 1
 * @param kind (required) opening: what the record held when the ledger began; transfer-out: shipped from this record; in-transit: shipped to it (or a cancel took back what was on its way); transfer-in: received here; transfer-return: a cancel returned it here; purchase-receipt: a purchase order's units arrived
 * @param onHandDelta (required) What the change added to on hand
 * @param committedDelta (required) What the change added to committed
 * @param onHand (required) On hand after the change
 * @param committed (required) Committed after the change
 * @param version (required) The record's version after the change
 * @param reason (optional) The reason an admin gave
 * @param reference (optional) The document behind a set or adjustment (an absolute URI)
 * @param actor (optional) The subject (sub) of the token that made the change
 * @param reservationId (optional) The reservation whose confirm, fulfilment or release made the change
 * @param idempotencyKey (optional) The Idempotency-Key of the request that made the change
 * @param at (required) When the change's transaction started, UTC
 * @param inTransitDelta (required) What the change added to in transit (transfers only; 0 otherwise)
 * @param transferId (optional) The transfer that made the change
 * @param purchaseOrderId (optional) The purchase order whose receipt made the change
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record StockMovement(long seq, String kind, long onHandDelta, long committedDelta, long onHand, long committed, long version, String reason, String reference, String actor, UUID reservationId, String idempotencyKey, Instant at, long inTransitDelta, UUID transferId, UUID purchaseOrderId) {

    /** The required fields; the optional ones are absent. */
    public static StockMovement of(long seq, String kind, long onHandDelta, long committedDelta, long onHand, long committed, long version, Instant at, long inTransitDelta) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, null, null, null, null, null, at, inTransitDelta, null, null);
    }

    /** A copy with {@code reason} set. */
    public StockMovement withReason(String value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, value, reference, actor, reservationId, idempotencyKey, at, inTransitDelta, transferId, purchaseOrderId);
    }

    /** A copy with {@code reference} set. */
    public StockMovement withReference(String value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, reason, value, actor, reservationId, idempotencyKey, at, inTransitDelta, transferId, purchaseOrderId);
    }

    /** A copy with {@code actor} set. */
    public StockMovement withActor(String value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, reason, reference, value, reservationId, idempotencyKey, at, inTransitDelta, transferId, purchaseOrderId);
    }

    /** A copy with {@code reservationId} set. */
    public StockMovement withReservationId(UUID value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, reason, reference, actor, value, idempotencyKey, at, inTransitDelta, transferId, purchaseOrderId);
    }

    /** A copy with {@code idempotencyKey} set. */
    public StockMovement withIdempotencyKey(String value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, reason, reference, actor, reservationId, value, at, inTransitDelta, transferId, purchaseOrderId);
    }

    /** A copy with {@code transferId} set. */
    public StockMovement withTransferId(UUID value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, reason, reference, actor, reservationId, idempotencyKey, at, inTransitDelta, value, purchaseOrderId);
    }

    /** A copy with {@code purchaseOrderId} set. */
    public StockMovement withPurchaseOrderId(UUID value) {
        return new StockMovement(seq, kind, onHandDelta, committedDelta, onHand, committed, version, reason, reference, actor, reservationId, idempotencyKey, at, inTransitDelta, transferId, value);
    }
}
