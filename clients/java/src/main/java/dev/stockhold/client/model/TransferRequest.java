package dev.stockhold.client.model;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The TransferRequest object of the API.
 *
 * @param sku (required)
 * @param from (required) The location the units leave; it must have a record of the sku
 * @param to (required) The location they go to, not from; created with its record when absent
 * @param quantity (required)
 * @param reference (optional) The client's document
 * @param expectedAt (optional) When the destination expects the units (RFC 3339)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record TransferRequest(String sku, String from, String to, long quantity, String reference, Instant expectedAt) {

    /** The required fields; the optional ones are absent. */
    public static TransferRequest of(String sku, String from, String to, long quantity) {
        return new TransferRequest(sku, from, to, quantity, null, null);
    }

    /** A copy with {@code reference} set. */
    public TransferRequest withReference(String value) {
        return new TransferRequest(sku, from, to, quantity, value, expectedAt);
    }

    /** A copy with {@code expectedAt} set. */
    public TransferRequest withExpectedAt(Instant value) {
        return new TransferRequest(sku, from, to, quantity, reference, value);
    }
}
