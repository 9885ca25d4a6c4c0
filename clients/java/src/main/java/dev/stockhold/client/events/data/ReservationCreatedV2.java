package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.created.v2, the same fields as v1 with {@code lines} possibly empty: a new reservation that holds no units yet: every unit of its lines waits for incoming supply ({@code backordered}). Absent optional fields are
 * omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationCreatedV2(UUID id, String status, List<ReservationEventLine> lines, Instant expiresAt, Instant createdAt,
        String reference, Map<String, String> metadata, String fulfilment, String channel,
        List<ReservationPromiseLine> backordered, List<ReservationKitLine> kits) implements ReservationEventData {

    public static final String STATUS = "HELD";

    public ReservationCreatedV2 {
        if (!STATUS.equals(status)) {
            throw new IllegalArgumentException("reservation.created.v2 carries status " + STATUS + ", not " + status);
        }
    }
}
