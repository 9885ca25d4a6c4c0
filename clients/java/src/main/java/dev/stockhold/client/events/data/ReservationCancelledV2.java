package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.cancelled.v2, the same fields as v1 with {@code lines} possibly empty: the reservation was cancelled while it held no units (every unit was still backordered); what it was promised is free to promise again. Absent optional fields are
 * omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationCancelledV2(UUID id, String status, List<ReservationEventLine> lines, Instant expiresAt, Instant createdAt,
        String reference, Map<String, String> metadata) implements ReservationEventData {

    public static final String STATUS = "CANCELLED";

    public ReservationCancelledV2 {
        if (!STATUS.equals(status)) {
            throw new IllegalArgumentException("reservation.cancelled.v2 carries status " + STATUS + ", not " + status);
        }
    }
}
