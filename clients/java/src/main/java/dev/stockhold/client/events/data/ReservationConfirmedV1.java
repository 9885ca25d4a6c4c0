package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.confirmed.v1. The reservation's lines were sold. The reservation as the change left it; status is always CONFIRMED. Absent optional
 * fields are omitted; {@code fulfilment} is "deferred" for a reservation whose confirm commits rather than sells.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationConfirmedV1(UUID id, String status, List<ReservationEventLine> lines, Instant expiresAt, Instant createdAt,
        String reference, Map<String, String> metadata, String fulfilment) implements ReservationEventData {

    public static final String STATUS = "CONFIRMED";

    public ReservationConfirmedV1 {
        if (!STATUS.equals(status)) {
            throw new IllegalArgumentException("reservation.confirmed.v1 carries status " + STATUS + ", not " + status);
        }
    }
}
