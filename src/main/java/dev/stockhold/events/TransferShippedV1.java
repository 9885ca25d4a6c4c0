package dev.stockhold.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Data of transfer.shipped.v1: units left the origin and are on their way to the destination. The transfer as the change left it; absent optional fields are omitted.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TransferShippedV1(UUID id, String sku, String from, String to, long quantity, long received, long returned, long inTransit,
        String status, String reference, Instant expectedAt, Instant createdAt) {
}
