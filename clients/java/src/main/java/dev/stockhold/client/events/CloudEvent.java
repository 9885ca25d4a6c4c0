package dev.stockhold.client.events;

import java.time.Instant;
import java.util.UUID;

/**
 * One Stockhold event: the CloudEvents attributes and the data as the type's own record.
 *
 * @param id the event id, the same on every redelivery: what a consumer deduplicates by
 * @param type e.g. {@code dev.stockhold.reservation.created.v1}
 * @param subject the reservation id, {@code sku@location} or the transfer id
 * @param time when the change was committed
 * @param tenant the tenant ({@code tenantid})
 * @param sequence the event's place among its aggregate's events, contiguous from 1
 * @param partitionKey the aggregate's key (the Kafka record key)
 * @param data the payload, an instance of {@link EventTypes#dataOf(String)} for a known type, else a JsonNode
 */
public record CloudEvent<T>(UUID id, String type, String subject, Instant time, String tenant, long sequence, String partitionKey, T data) {
}
