package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of reservation.updated.v1: a HELD reservation's lines were replaced. {@code lines} are the lines it holds now,
 * {@code previousLines} those it held before; status is always HELD and expiresAt unchanged; {@code kits} the kit lines it holds now. Absent optional
 * fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationUpdatedV1(UUID id, String status, List<ReservationEventLine> lines, List<ReservationEventLine> previousLines,
        Instant expiresAt, Instant createdAt, String reference, Map<String, String> metadata, List<ReservationKitLine> kits) {

    public static final String STATUS = "HELD";
}
