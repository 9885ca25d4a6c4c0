package dev.stockhold.outbox;

import java.time.Instant;
import java.util.UUID;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * CloudEvents 1.0 structured-mode envelope, as stored in the outbox and sent to the broker, with the sequence and
 * partitioning extensions: {@code sequence} (contiguous per aggregate from 1, zero-padded so a string compare orders it)
 * and {@code partitionkey} (the Kafka key).
 */
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
        String dataschema,
        String sequence,
        String partitionkey,
        T data) {

    public static final String SOURCE = "/stockhold";
    public static final String MEDIA_TYPE = "application/cloudevents+json";
    /** Digits of {@code sequence}: every positive long, so the string order is the numeric order. */
    public static final int SEQUENCE_DIGITS = 19;

    /** The sequence attribute of the {@code n}th event of an aggregate. */
    public static String sequence(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("an aggregate's sequence starts at 1: " + n);
        }
        String digits = Long.toString(n); // at most 19 digits: Long.MAX_VALUE has 19
        return "0".repeat(SEQUENCE_DIGITS - digits.length()) + digits;
    }
}
