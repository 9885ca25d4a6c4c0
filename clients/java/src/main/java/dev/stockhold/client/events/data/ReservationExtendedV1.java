package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.extended.v1. The hold now lasts until expiresAt. The reservation as the change left it; status is always HELD. Absent optional
 * fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationExtendedV1(UUID id, String status, List<ReservationEventLine> lines, Instant expiresAt, Instant createdAt,
        String reference, Map<String, String> metadata) implements ReservationEventData {

    public static final String STATUS = "HELD";

    public ReservationExtendedV1 {
        if (!STATUS.equals(status)) {
            throw new IllegalArgumentException("reservation.extended.v1 carries status " + STATUS + ", not " + status);
        }
    }
}
