package dev.stockhold.client.model;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The Transfer object of the API.
 *
 * @param id (required)
 * @param sku (required)
 * @param from (required) The location the units left
 * @param to (required) The location they are on their way to
 * @param quantity (required) Units shipped
 * @param received (required) Units received at the destination so far
 * @param returned (required) Units a cancel returned to the origin
 * @param inTransit (required) quantity - received - returned: still on their way
 * @param status (required) IN_TRANSIT while units are on their way; RECEIVED when all arrived; CANCELLED when a cancel returned the rest
 * @param reference (optional) The client's document, when given
 * @param expectedAt (optional) When the destination expects the units, when given (ISO-8601 UTC)
 * @param createdAt (required) ISO-8601 UTC
 * @param updatedAt (required) ISO-8601 UTC
 * @param version (required) Rises on every receipt and on the cancel; the ETag
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Transfer(UUID id, String sku, String from, String to, long quantity, long received, long returned, long inTransit, String status, String reference, Instant expectedAt, Instant createdAt, Instant updatedAt, long version) {

    /** The required fields; the optional ones are absent. */
    public static Transfer of(UUID id, String sku, String from, String to, long quantity, long received, long returned, long inTransit, String status, Instant createdAt, Instant updatedAt, long version) {
        return new Transfer(id, sku, from, to, quantity, received, returned, inTransit, status, null, null, createdAt, updatedAt, version);
    }

    /** A copy with {@code reference} set. */
    public Transfer withReference(String value) {
        return new Transfer(id, sku, from, to, quantity, received, returned, inTransit, status, value, expectedAt, createdAt, updatedAt, version);
    }

    /** A copy with {@code expectedAt} set. */
    public Transfer withExpectedAt(Instant value) {
        return new Transfer(id, sku, from, to, quantity, received, returned, inTransit, status, reference, value, createdAt, updatedAt, version);
    }
}
