package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The data of a reservation event: the reservation as the change left it (each type's record says its status). */
public sealed interface ReservationEventData permits ReservationCreatedV1, ReservationConfirmedV1, ReservationCancelledV1,
        ReservationExpiredV1, ReservationExtendedV1, ReservationCreatedV2, ReservationCancelledV2, ReservationExpiredV2 {

    UUID id();

    String status();

    List<ReservationEventLine> lines();

    Instant expiresAt();

    Instant createdAt();

    String reference();

    Map<String, String> metadata();
}
