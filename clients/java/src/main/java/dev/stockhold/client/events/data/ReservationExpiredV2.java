package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.expired.v2, the same fields as v1 with {@code lines} possibly empty: the reservation expired holding no units: its backordered units were left without supply (unpromised) and its hold ran out. Absent optional fields are
 * omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationExpiredV2(UUID id, String status, List<ReservationEventLine> lines, Instant expiresAt, Instant createdAt,
        String reference, Map<String, String> metadata) implements ReservationEventData {

    public static final String STATUS = "EXPIRED";

    public ReservationExpiredV2 {
        if (!STATUS.equals(status)) {
            throw new IllegalArgumentException("reservation.expired.v2 carries status " + STATUS + ", not " + status);
        }
    }
}
