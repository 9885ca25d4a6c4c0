package dev.stockhold.reservation;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /v1/reservations/{id}/extend: the new hold, counted from now. */
@Schema(name = "ExtendRequest")
@RegisterForReflection
public record ExtendRequest(
        @Schema(required = true, minimum = "1", maximum = "86400", example = "600") @NotNull @Min(1) @Max(86_400) Integer ttlSeconds) {
}
