package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of transfer.cancelled.v1: the units not received went back to on hand at the origin ({@code returned}). The transfer as the change left it; absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TransferCancelledV1(UUID id, String sku, String from, String to, long quantity, long received, long returned, long inTransit,
        String status, String reference, Instant expectedAt, Instant createdAt) {
}
