package dev.stockhold.outbox;

import java.time.Instant;
import java.util.UUID;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** CloudEvents 1.0 structured-mode envelope, as stored in the outbox and sent to the broker. */
@RegisterForReflection(ignoreNested = false)
public record CloudEvent<T>(
        String specversion,
        UUID id,
        String source,
        String type,
        String subject,
        Instant time,
        String datacontenttype,
        String tenantid,
        T data) {

    public static final String SOURCE = "/stockhold";
    public static final String MEDIA_TYPE = "application/cloudevents+json";

    public static <T> CloudEvent<T> of(UUID id, EventType type, String tenantId, String subject, Instant time, T data) {
        return new CloudEvent<>("1.0", id, SOURCE, type.type(), subject, time, "application/json", tenantId, data);
    }
}
