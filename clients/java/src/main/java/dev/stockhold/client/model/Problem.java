package dev.stockhold.client.model;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * RFC 9457 problem details. `type` ends in one of the slugs: malformed-request, validation-failed, idempotency-key-missing, idempotency-key-invalid, unauthorized, forbidden, not-found, item-not-found, channel-not-found, transfer-not-found, purchase-order-not-found, kit-not-found, reservation-not-found, outbox-event-not-found, method-not-allowed, not-acceptable, insufficient-stock, invalid-reservation-state, stock-below-held, over-fulfilment, over-receipt, invalid-transfer-state, invalid-purchase-order-state, insufficient-stock-to-ship, precondition-failed, reservation-cap-exceeded, hold-limit-reached, idempotency-request-in-progress, request-timeout, length-required, payload-too-large, unsupported-media-type, too-many-requests, unknown-sku, unknown-channel, idempotency-key-reused, service-unavailable, internal-error.
 *
 * @param type (required)
 * @param title (required)
 * @param status (required)
 * @param detail (required)
 * @param violations (optional) validation-failed: the offending fields
 * @param skus (optional) insufficient-stock, unknown-sku and reservation-cap-exceeded: the skus concerned
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Problem(String type, String title, int status, String detail, List<Violation> violations, List<String> skus) {

    /** The required fields; the optional ones are absent. */
    public static Problem of(String type, String title, int status, String detail) {
        return new Problem(type, title, status, detail, null, null);
    }

    /** A copy with {@code violations} set. */
    public Problem withViolations(List<Violation> value) {
        return new Problem(type, title, status, detail, value, skus);
    }

    /** A copy with {@code skus} set. */
    public Problem withSkus(List<String> value) {
        return new Problem(type, title, status, detail, violations, value);
    }
}
