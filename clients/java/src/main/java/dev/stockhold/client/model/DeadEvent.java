package dev.stockhold.client.model;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The DeadEvent object of the API.
 *
 * @param id (required)
 * @param aggregateId (required)
 * @param type (required)
 * @param attempts (required)
 * @param lastError (optional)
 * @param createdAt (required)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeadEvent(UUID id, UUID aggregateId, String type, int attempts, String lastError, Instant createdAt) {

    /** The required fields; the optional ones are absent. */
    public static DeadEvent of(UUID id, UUID aggregateId, String type, int attempts, Instant createdAt) {
        return new DeadEvent(id, aggregateId, type, attempts, null, createdAt);
    }

    /** A copy with {@code lastError} set. */
    public DeadEvent withLastError(String value) {
        return new DeadEvent(id, aggregateId, type, attempts, value, createdAt);
    }
}
