package dev.stockhold.client.events.data;

// Copied from the service's events package by ClientModelTest: do not edit.

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Data of transfer.received.v1: a receipt moved units from in transit to on hand at the destination; {@code receipt} is this receipt's units. The transfer as the change left it; absent optional fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TransferReceivedV1(UUID id, String sku, String from, String to, long quantity, long received, long returned, long inTransit,
        String status, String reference, Instant expectedAt, Instant createdAt, long receipt) {
}
