package dev.stockhold.client.model;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The PurchaseOrder object of the API.
 *
 * @param id (required)
 * @param sku (required)
 * @param location (required)
 * @param quantity (required) Units ordered
 * @param received (required) Units received so far
 * @param expected (required) Units still expected: quantity - received while OPEN, else 0
 * @param status (required) OPEN while units are expected; RECEIVED when all arrived; CLOSED when the rest will not come
 * @param expectedAt (required) When the units are expected (ISO-8601 UTC)
 * @param reference (optional) The client's document, when given
 * @param createdAt (required) ISO-8601 UTC
 * @param updatedAt (required) ISO-8601 UTC
 * @param version (required) Rises on every receipt and on the close; the ETag
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record PurchaseOrder(UUID id, String sku, String location, long quantity, long received, long expected, String status, Instant expectedAt, String reference, Instant createdAt, Instant updatedAt, long version) {

    /** The required fields; the optional ones are absent. */
    public static PurchaseOrder of(UUID id, String sku, String location, long quantity, long received, long expected, String status, Instant expectedAt, Instant createdAt, Instant updatedAt, long version) {
        return new PurchaseOrder(id, sku, location, quantity, received, expected, status, expectedAt, null, createdAt, updatedAt, version);
    }

    /** A copy with {@code reference} set. */
    public PurchaseOrder withReference(String value) {
        return new PurchaseOrder(id, sku, location, quantity, received, expected, status, expectedAt, value, createdAt, updatedAt, version);
    }
}
