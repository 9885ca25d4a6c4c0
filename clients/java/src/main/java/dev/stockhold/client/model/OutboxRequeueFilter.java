package dev.stockhold.client.model;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The OutboxRequeueFilter object of the API.
 *
 * @param type (optional) Only events of this CloudEvents type
 * @param since (optional) Only events written at or after this instant (RFC 3339)
 * @param until (optional) Only events written before this instant (RFC 3339)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record OutboxRequeueFilter(String type, Instant since, Instant until) {

    /** The required fields; the optional ones are absent. */
    public static OutboxRequeueFilter of() {
        return new OutboxRequeueFilter(null, null, null);
    }

    /** A copy with {@code type} set. */
    public OutboxRequeueFilter withType(String value) {
        return new OutboxRequeueFilter(value, since, until);
    }

    /** A copy with {@code since} set. */
    public OutboxRequeueFilter withSince(Instant value) {
        return new OutboxRequeueFilter(type, value, until);
    }

    /** A copy with {@code until} set. */
    public OutboxRequeueFilter withUntil(Instant value) {
        return new OutboxRequeueFilter(type, since, value);
    }
}
