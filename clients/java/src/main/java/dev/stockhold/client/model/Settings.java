package dev.stockhold.client.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

// Generated from the OpenAPI document (/q/openapi) by ClientModelTest: do not edit.
/**
 * The tenant's caps on reservations; a cap that is absent does not apply.
 *
 * @param maxLineQuantity (optional) The most units one reservation line may hold (a split line counts whole)
 * @param maxHeldPerReference (optional) The most HELD, unexpired reservations that one reference may have
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Settings(Integer maxLineQuantity, Integer maxHeldPerReference) {

    /** The required fields; the optional ones are absent. */
    public static Settings of() {
        return new Settings(null, null);
    }

    /** A copy with {@code maxLineQuantity} set. */
    public Settings withMaxLineQuantity(Integer value) {
        return new Settings(value, maxHeldPerReference);
    }

    /** A copy with {@code maxHeldPerReference} set. */
    public Settings withMaxHeldPerReference(Integer value) {
        return new Settings(maxLineQuantity, value);
    }
}
