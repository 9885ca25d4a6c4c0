package dev.stockhold.events;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Data of reservation.repromised.v1: a supply fell short, and units it was promised now wait for a later one ({@code repromised}, with their new promisedAt). Absent optional fields are omitted.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationRepromisedV1(UUID id, String status, List<ReservationEventLine> lines, List<ReservationPromiseLine> repromised,
        Instant expiresAt, Instant createdAt, String reference,
        Map<String, String> metadata) {
}
