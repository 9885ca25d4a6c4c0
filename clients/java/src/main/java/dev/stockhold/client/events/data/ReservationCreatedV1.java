package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.created.v1. A new reservation holds its lines. The reservation as the change left it; status is always HELD. Absent optional
 * fields are omitted; {@code fulfilment} is "deferred" for a reservation whose confirm commits rather than sells; {@code channel} names the channel the request
 * was allocated through; {@code backordered} what a backorder request was promised from incoming supply, per supply; {@code kits} the kit lines, in kit units with their components.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationCreatedV1(UUID id, String status, List<ReservationEventLine> lines, Instant expiresAt, Instant createdAt,
        String reference, Map<String, String> metadata, String fulfilment, String channel,
        List<ReservationPromiseLine> backordered, List<ReservationKitLine> kits) implements ReservationEventData {

    public static final String STATUS = "HELD";

    public ReservationCreatedV1 {
        if (!STATUS.equals(status)) {
            throw new IllegalArgumentException("reservation.created.v1 carries status " + STATUS + ", not " + status);
        }
    }
}
