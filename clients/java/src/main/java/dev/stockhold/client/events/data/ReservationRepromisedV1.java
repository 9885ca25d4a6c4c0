package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.repromised.v1: a supply fell short, and units it was promised now wait for a later one ({@code repromised}, with their new promisedAt). Absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationRepromisedV1(UUID id, String status, List<ReservationEventLine> lines, List<ReservationPromiseLine> repromised,
        Instant expiresAt, Instant createdAt, String reference,
        Map<String, String> metadata) {
}
