package dev.stockhold.inventory;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Available to promise: what a reservation could be given (or promised) now, or by an expected date. */
@Schema(name = "AvailableToPromise")
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Promisable(
        @Schema(description = "The expected date of supply this quantity counts (ISO-8601 UTC); absent: now, from the shelf") Instant at,
        @Schema(required = true, minimum = "0", example = "12",
                description = "Units a reservation could be given or promised by then: reservable now plus supply expected by then and "
                        + "not promised to anyone") long quantity) {
}
